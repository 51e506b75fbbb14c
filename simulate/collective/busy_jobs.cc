#include "simulate/collective/busy_jobs.h"

#include <sstream>

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"
#include "simulate/collective/prediction.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

std::vector<BusyJob> parse_busy_jobs(const std::string& text, const std::string& source) {
  std::vector<BusyJob> out;
  LineReader lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    std::string line(raw.substr(0, raw.find('#')));
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    const int n = lines.number();
    if (w.size() != 3)
      throw InputError(source, n, "expected `HOSTLIST COLLECTIVE SIZE` (e.g. `dgx[001-016] allreduce 256M`), not `" +
                                      line + "`");
    BusyJob job;
    job.line = n;
    job.hosts = expand_hostlist_at(w[0], source, n);
    try {
      job.collective = parse_collective(w[1]);
      const std::vector<double> sizes = parse_sizes(w[2], "size");
      if (sizes.size() != 1) throw InputError(source, n, "expected one size");
      job.bytes = sizes.front();
    } catch (const InputError& e) {
      throw InputError(source, n, std::string("expected a collective and one size: ") + e.what());
    }
    out.push_back(std::move(job));
  }
  return out;
}

std::vector<BusyJob> read_busy_jobs(const std::string& path) {
  return parse_busy_jobs(read_file(path, "busy jobs"), path);
}

}  // namespace slurmtopo
