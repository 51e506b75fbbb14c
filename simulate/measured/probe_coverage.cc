#include "simulate/measured/probe_coverage.h"

#include <filesystem>
#include <fstream>

namespace slurmtopo {

namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// "DIR/01-group-su1.out:3" → "01-group-su1.out".
std::string run_file(const RunComparison& r) { return file_name(r.source.substr(0, r.source.rfind(':'))); }

// The first line that is not blank, cut to a readable length: srun's or the shell's complaint.
std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    return line.size() > 160 ? line.substr(0, 157) + "..." : line;
  }
  return "the output is empty";
}

}  // namespace

const char* to_string(StepState s) {
  switch (s) {
    case StepState::Measured: return "measured";
    case StepState::CutShort: return "cut short";
    case StepState::OtherHosts: return "other hosts";
    case StepState::NoRun: return "no run";
    case StepState::NoOutput: return "no output";
  }
  return "?";
}

std::vector<ProbeStep> probe_coverage(const std::string& dir, const std::vector<ProbePlacement>& placements,
                                      const std::vector<RunComparison>& runs) {
  std::vector<ProbeStep> out;
  for (const ProbePlacement& p : placements) {
    ProbeStep step;
    step.placement = p;
    const std::string name = file_name(p.output);
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].job_log || run_file(runs[i]) != name) continue;
      // The first run of its own hosts, else the first at all.
      if (runs[i].hosts == p.hosts) {
        step.run = static_cast<int>(i);
        break;
      }
      if (step.run < 0) step.run = static_cast<int>(i);
    }
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::path(dir) / name;
    if (step.run >= 0) {
      const RunComparison& r = runs[step.run];
      if (r.hosts != p.hosts) {
        step.state = StepState::OtherHosts;
        step.detail = "ran on " + r.hostlist;
      } else {
        step.state = r.complete ? StepState::Measured : StepState::CutShort;
      }
    } else if (std::filesystem::is_regular_file(file, ec)) {
      step.state = StepState::NoRun;
      step.detail = first_line(file);
    }
    out.push_back(std::move(step));
  }
  return out;
}

}  // namespace slurmtopo
