#include "emit/gres_compare.h"

#include <algorithm>
#include <map>
#include <set>

#include "slurm/config_lines.h"
#include "slurm/hostlist.h"
#include "slurm/ranges.h"

namespace slurmtopo {

namespace {

std::string links_text(const std::vector<int>& links) {
  std::string out;
  for (int l : links) out += (out.empty() ? "" : ",") + std::to_string(l);
  return out;
}

// The gpu lines' (line index, file) pairs slurmd builds for `node`, in file order.
std::vector<std::pair<int, size_t>> gpus_of(const ParsedGres& gres, const std::string& node) {
  std::vector<std::pair<int, size_t>> out;
  for (int i = 0; i < static_cast<int>(gres.lines.size()); ++i) {
    const GresConfLine& g = gres.lines[i];
    if (ascii_lower(g.name) != "gpu") continue;
    if (g.has_nodes && std::find(g.nodes.begin(), g.nodes.end(), node) == g.nodes.end()) continue;
    for (size_t f = 0; f < g.files.size(); ++f) out.push_back({i, f});
  }
  return out;
}

// Every core of `part` is in `whole` (lists in any order).
bool contains_all(const std::vector<int>& whole, const std::vector<int>& part) {
  const std::set<int> in(whole.begin(), whole.end());
  return std::all_of(part.begin(), part.end(), [&](int c) { return in.count(c) > 0; });
}

}  // namespace

std::vector<GresIssue> compare_gres_with_nodes(const ParsedGres& gres, const std::vector<ClassGres>& classes,
                                               std::vector<GresIssue>& warnings) {
  std::vector<GresIssue> errors;
  for (const ClassGres& c : classes) {
    // Nodes of the class that see the same lines are one case.
    std::map<std::vector<std::pair<int, size_t>>, std::vector<std::string>> cases;
    for (const auto& node : expand_hostlist(c.hostlist)) cases[gpus_of(gres, node)].push_back(node);
    for (const auto& [gpus, nodes] : cases) {
      if (gpus.size() != c.gpus.size()) continue;  // check_gres reports the count
      const std::string who = compress_hostlist(nodes);
      for (size_t i = 0; i < gpus.size(); ++i) {
        const GresConfLine& g = gres.lines[gpus[i].first];
        const GresLine& want = c.gpus[i];
        const std::string gpu = who + ": GPU " + std::to_string(i) + " (File=" + g.files[gpus[i].second] + ")";
        if (!g.has_cores) {
          if (!want.cores.empty())
            warnings.push_back({gres.file, g.line, gpu + " has no Cores=: jobs may run on any core, the GPU's own are " +
                                                       format_ranges(want.local_cores)});
        } else if (!want.cores.empty() && g.cores != want.cores && g.cores != want.local_cores &&
                   contains_all(g.cores, want.cores)) {
          // A superset (Cores=0-111 for every GPU): slurmd -G and slurmctld of every release take
          // it, whether it also passes the release's socket rule is check_gres's; jobs may then
          // run on cores far from the GPU.
          warnings.push_back({gres.file, g.line, gpu + " Cores=" + format_ranges(g.cores) + " is more than the GPU's own cores " +
                                                     format_ranges(want.local_cores) +
                                                     (want.cores != want.local_cores ? " (" + format_ranges(want.cores) + " as this release needs)" : "") +
                                                     ": slurmd accepts it, but jobs may be bound to cores far from the GPU"});
        } else if (!want.cores.empty() && g.cores != want.cores && g.cores != want.local_cores) {
          errors.push_back({gres.file, g.line, gpu + " Cores=" + format_ranges(g.cores) + " but the GPU is local to cores " +
                                                   format_ranges(want.local_cores) +
                                                   (want.cores != want.local_cores ? " (" + format_ranges(want.cores) + " as this release needs)" : "") +
                                                   ": jobs would bind to the wrong cores (and AutoDetect=nvml would drop the GPU)"});
        }
        if (g.has_links && g.files.size() == 1) {
          if (want.links.empty())
            errors.push_back({gres.file, g.line, gpu + " Links=" + links_text(g.links) +
                                                     " but the GPUs have no direct NVLink to each other (NVSwitch or PCIe only): "
                                                     "drop Links="});
          else if (g.links != want.links)
            errors.push_back({gres.file, g.line, gpu + " Links=" + links_text(g.links) + " but the node's NVLink counts are " +
                                                     links_text(want.links)});
        } else if (!g.has_links && !want.links.empty()) {
          warnings.push_back({gres.file, g.line, gpu + " has no Links=: the node's NVLink counts are " + links_text(want.links) +
                                                     " (Slurm cannot prefer NVLinked GPUs)"});
        }
      }
    }
  }
  return errors;
}

}  // namespace slurmtopo
