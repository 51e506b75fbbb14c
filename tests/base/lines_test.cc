#include "base/lines.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace slurmtopo;

namespace {
std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  LineReader r(text);
  std::string_view line;
  while (r.next(line)) out.push_back(std::to_string(r.number()) + ":" + std::string(line));
  return out;
}
}  // namespace

TEST_CASE("lines: numbered from 1, a last line without a newline counts, an empty text has none") {
  CHECK(lines_of("a\nb\n") == std::vector<std::string>{"1:a", "2:b"});
  CHECK(lines_of("a\n\nc") == std::vector<std::string>{"1:a", "2:", "3:c"});
  CHECK(lines_of("x\r\n") == std::vector<std::string>{"1:x\r"});
  CHECK(lines_of("").empty());
}
