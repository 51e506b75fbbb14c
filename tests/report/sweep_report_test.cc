#include "report/sweep_report.h"

#include <doctest/doctest.h>

#include <iostream>
#include <sstream>

using namespace slurmtopo;

namespace {

// Runs `body` with std::cerr captured.
template <typename F>
std::string stderr_of(F body) {
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  body();
  std::cerr.rdbuf(old);
  return captured.str();
}

}  // namespace

TEST_CASE("sweep progress: the last line drawn is the sweep's total, even when no tick came after it") {
  auto progress = std::make_shared<LiveProgress>();
  const std::string out = stderr_of([&] {
    SweepProgressLine line(progress);
    progress->switches = 3;
    progress->cas = 10;
    line.show();
    // The sweep finds the rest between two ticks and ends.
    progress->switches = 12;
    progress->cas = 32;
  });
  const std::string last = out.substr(out.rfind('\r'));
  CHECK(last.find("discover: 12 switches, 32 CAs;") != std::string::npos);
  CHECK(out.back() == '\n');
}

TEST_CASE("sweep progress: a sweep faster than one tick still shows its total") {
  auto progress = std::make_shared<LiveProgress>();
  const std::string out = stderr_of([&] {
    SweepProgressLine line(progress);
    progress->switches = 2;
    progress->cas = 4;
    progress->lft_switches = 2;
    progress->lft_done = 2;
  });
  CHECK(out.find("discover: 2 switches, 4 CAs; forwarding tables 2/2;") != std::string::npos);
}
