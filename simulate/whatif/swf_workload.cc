#include "simulate/whatif/swf_workload.h"

#include <algorithm>
#include <charconv>
#include <fstream>

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"

namespace slurmtopo {

namespace {

constexpr int kFields = 18;

// SWF numbers are integers, but some archive traces write averages (field 6) as decimals.
// from_chars also takes "inf", "nan" and 1e300; no trace field (seconds, processors, ids) comes
// near 1e15, and beyond it the conversion to whole seconds and nodes would overflow.
constexpr double kLargest = 1e15;

bool parse_number(std::string_view word, double& out) {
  const char* end = word.data() + word.size();
  auto [p, ec] = std::from_chars(word.data(), end, out);
  return ec == std::errc() && p == end;
}

}  // namespace

Workload parse_swf(std::string_view text, const std::string& file, int cpus_per_node, int max_nodes) {
  if (cpus_per_node < 1) throw InputError(file, 0, "expected at least 1 CPU per node");
  Workload w;
  w.source = file;
  LineReader reader(text);
  std::string_view row;
  while (reader.next(row)) {
    const int line = reader.number();
    const size_t first = row.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || row[first] == ';') continue;
    double f[kFields];
    int n = 0;
    size_t pos = first;
    while (pos < row.size()) {
      const size_t end = std::min(row.find_first_of(" \t\r", pos), row.size());
      const std::string_view word = row.substr(pos, end - pos);
      if (n == kFields) throw InputError(file, line, "expected 18 fields, found more");
      if (!parse_number(word, f[n]))
        throw InputError(file, line, "field " + std::to_string(n + 1) + ": expected a number, got '" + std::string(word) + "'");
      if (!(f[n] >= -kLargest && f[n] <= kLargest))
        throw InputError(file, line, "field " + std::to_string(n + 1) + ": expected a number from -1e15 to 1e15, got '" +
                                         std::string(word) + "'");
      ++n;
      pos = row.find_first_not_of(" \t\r", end);
      if (pos == std::string_view::npos) break;
    }
    if (n != kFields) throw InputError(file, line, "expected 18 fields, found " + std::to_string(n));
    const double submit = f[1], run = f[3], allocated = f[4], requested = f[7], limit = f[8];
    if (submit < 0) throw InputError(file, line, "field 2: expected a submit time of 0 or more");
    const double procs = requested > 0 ? requested : allocated;
    if (procs <= 0 || run < 0) {
      ++w.skipped_unknown;
      continue;
    }
    WorkloadJob job;
    job.id = static_cast<int64_t>(f[0]);
    job.submit = static_cast<int64_t>(submit);
    job.run_time = static_cast<int64_t>(run);
    job.time_limit = std::max(job.run_time, limit > 0 ? static_cast<int64_t>(limit) : job.run_time);
    const int64_t nodes = (static_cast<int64_t>(procs) + cpus_per_node - 1) / cpus_per_node;
    if (nodes > max_nodes) {
      ++w.skipped_too_large;
      continue;
    }
    job.nodes = static_cast<int>(nodes);
    job.line = line;
    w.jobs.push_back(job);
  }
  // A replay of nothing would report an idle cluster as if that were the answer.
  if (w.jobs.empty() && w.skipped_unknown == 0 && w.skipped_too_large == 0)
    throw InputError(file, 0, "no jobs: expected Standard Workload Format job lines (18 numbers each), "
                              "not only `;` comments");
  std::stable_sort(w.jobs.begin(), w.jobs.end(),
                   [](const WorkloadJob& a, const WorkloadJob& b) { return a.submit < b.submit; });
  return w;
}

Workload read_swf(const std::string& path, int cpus_per_node, int max_nodes) {
  return parse_swf(read_file(path), path, cpus_per_node, max_nodes);
}

}  // namespace slurmtopo
