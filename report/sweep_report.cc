#include "report/sweep_report.h"

#include <cstdio>
#include <iostream>

namespace slurmtopo {

SweepProgressLine::SweepProgressLine(std::shared_ptr<LiveProgress> progress)
    : progress_(std::move(progress)), start_(Clock::now()) {}

void SweepProgressLine::show() {
  const double s = std::chrono::duration<double>(Clock::now() - start_).count();
  const LiveProgress& p = *progress_;
  char line[160];
  if (p.lft_switches > 0)
    std::snprintf(line, sizeof line, "\rdiscover: %ld switches, %ld CAs; forwarding tables %ld/%ld; %.1f s ",
                  p.switches.load(), p.cas.load(), p.lft_done.load(), p.lft_switches.load(), s);
  else
    std::snprintf(line, sizeof line, "\rdiscover: %ld switches, %ld CAs; %.1f s ", p.switches.load(), p.cas.load(), s);
  std::cerr << line << std::flush;
}

SweepProgressLine::~SweepProgressLine() {
  show();
  std::cerr << "\n";
}

std::string partial_sweep_text(const Fabric& fabric) {
  std::string out = "slurmtopo: " + fabric.source + ": partial sweep, " + std::to_string(fabric.partial.size()) +
                    " problem" + (fabric.partial.size() == 1 ? "" : "s") + ":\n";
  for (const auto& p : fabric.partial) out += "  " + p + "\n";
  return out + "nothing saved; run again, or accept what was found with --allow-partial\n";
}

}  // namespace slurmtopo
