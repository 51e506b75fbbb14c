#include "emit/gres_check.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>

#include "slurm/config_lines.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

// The trailing number of a device file ("/dev/nvidia12" → 12), -1 without one.
long device_number(const std::string& file) {
  size_t end = file.size(), start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(file[start - 1]))) --start;
  long n = -1;
  if (start < end) std::from_chars(file.data() + start, file.data() + end, n);
  return n;
}

}  // namespace

namespace {

// The GPUs slurmd builds for one node from its gres.conf lines, in its index order.
struct NodeGpu {
  const GresConfLine* line;
  std::string file;
};

struct Checker {
  const ParsedGres& gres;
  const ParsedNodes& nodes;
  CoreRule rule;
  GresCheck& out;

  void error(const std::string& file, int line, const std::string& m) { out.errors.push_back({file, line, m}); }
  void warning(const std::string& file, int line, const std::string& m) { out.warnings.push_back({file, line, m}); }

  void check_group(const std::string& who, const NodeConfLine& node, const std::vector<int>& lines) {
    const std::string& gf = gres.file;
    std::vector<NodeGpu> gpus;
    for (int i : lines) {
      const GresConfLine& g = gres.lines[i];
      if (ascii_lower(g.name) != "gpu") continue;
      if (g.files.empty()) {
        error(gf, g.line, who + ": a gpu line without File=: slurmd cannot bind or hide the device");
        continue;
      }
      if (g.has_count && static_cast<size_t>(g.count) != g.files.size())
        error(gf, g.line, who + ": Count=" + std::to_string(g.count) + " but File= names " +
                              std::to_string(g.files.size()) + " device(s)");
      if (g.has_links && g.files.size() != 1)
        error(gf, g.line, who + ": Links= on a line with " + std::to_string(g.files.size()) + " devices (one File per line)");
      for (const auto& f : g.files) gpus.push_back({&g, f});
    }

    // Counts and types against the NodeName line's Gres=.
    std::map<std::string, long> want, have;
    bool typed = false;
    for (const auto& [spec, n] : node.gres) {
      if (spec.rfind("gpu", 0) != 0 || (spec.size() > 3 && spec[3] != ':')) continue;
      want[spec.size() > 4 ? spec.substr(4) : ""] += n;
      typed |= spec.size() > 4;
    }
    for (const NodeGpu& g : gpus) ++have[ascii_lower(g.line->type)];
    long want_total = 0, have_total = static_cast<long>(gpus.size());
    for (const auto& [t, n] : want) want_total += n;
    if (want.empty() && !gpus.empty()) {
      error(nodes.file, node.line, who + ": gres.conf has " + std::to_string(have_total) + " gpu(s) but the NodeName line has no Gres=gpu");
    } else if (!want.empty() && gpus.empty()) {
      error(gf, 0, who + ": NodeName line says Gres=gpu:" + std::to_string(want_total) + " but gres.conf has no gpu line for it");
    } else if (want_total != have_total) {
      error(gf, gpus.front().line->line, who + ": gres.conf has " + std::to_string(have_total) + " gpu(s), the NodeName line " +
                                             std::to_string(want_total) + " (node drains: count reported lower/higher than configured)");
    } else if (typed) {
      for (const auto& [t, n] : want)
        if (have[t] != n)
          error(gf, gpus.front().line->line, who + ": Gres=gpu:" + t + ":" + std::to_string(n) + " but gres.conf has " +
                                                 std::to_string(have[t]) + " gpu(s) of Type=" + t);
    }

    // File order: slurmd numbers GPUs in file order; NVML, CUDA and /dev/nvidiaN in PCI order.
    std::set<std::string> seen;
    long previous = -1;
    for (const NodeGpu& g : gpus) {
      if (!seen.insert(g.file).second) error(gf, g.line->line, who + ": File=" + g.file + " listed twice");
      long n = device_number(g.file);
      if (n >= 0 && n < previous)
        error(gf, g.line->line, who + ": File=" + g.file + " after device " + std::to_string(previous) +
                                    ": list GPUs in PCI order, or Slurm's index and CUDA's differ");
      previous = std::max(previous, n);
    }

    // Cores: Slurm core ids, within Sockets × CoresPerSocket, and the version's socket rule.
    const int cores = node.sockets * node.cores_per_socket;
    for (size_t i = 0; i < gpus.size(); ++i) {
      const GresConfLine& g = *gpus[i].line;
      if (!g.has_cores || (i > 0 && gpus[i - 1].line == gpus[i].line)) continue;
      if (cores > 0 && !g.cores.empty() && g.cores.back() >= cores) {
        error(gf, g.line, who + ": Cores=" + format_ranges(g.cores) + " beyond the node's " + std::to_string(cores) +
                              " cores (Sockets x CoresPerSocket): core ids, not CPU/thread ids");
        continue;
      }
      if (cores > 0 && node.cores_per_socket > 0 && slurm_cores(g.cores, node.sockets, node.cores_per_socket, rule) != g.cores)
        error(gf, g.line, who + ": Cores=" + format_ranges(g.cores) + " is not " + describe(rule) +
                              " as this Slurm version requires (node drains)");
    }

    // Links: one entry per GPU of the node, -1 exactly at the GPU's own index.
    for (size_t i = 0; i < gpus.size(); ++i) {
      const GresConfLine& g = *gpus[i].line;
      if (!g.has_links) continue;
      if (g.links.size() != gpus.size()) {
        error(gf, g.line, who + ": Links= has " + std::to_string(g.links.size()) + " entries for " +
                              std::to_string(gpus.size()) + " GPUs");
        continue;
      }
      for (size_t k = 0; k < g.links.size(); ++k) {
        if (k == i && g.links[k] != -1)
          error(gf, g.line, who + ": Links= of GPU " + std::to_string(i) + " needs -1 at index " + std::to_string(i) +
                                " (its own), has " + std::to_string(g.links[k]));
        else if (k != i && g.links[k] < 0)
          error(gf, g.line, who + ": Links= of GPU " + std::to_string(i) + " has " + std::to_string(g.links[k]) +
                                " at index " + std::to_string(k) + "; -1 belongs only at its own index " + std::to_string(i) +
                                " (slurmd accepts this silently and mis-ranks the GPUs)");
      }
    }
    // Links symmetric: a link from i to k is a link from k to i.
    for (size_t i = 0; i < gpus.size(); ++i)
      for (size_t k = i + 1; k < gpus.size(); ++k) {
        const GresConfLine &a = *gpus[i].line, &b = *gpus[k].line;
        if (a.has_links && b.has_links && a.links.size() == gpus.size() && b.links.size() == gpus.size() &&
            a.links[k] != b.links[i])
          warning(gf, b.line, who + ": Links= of GPU " + std::to_string(i) + " and " + std::to_string(k) +
                                  " disagree about their link count");
      }

    // Node line consistency.
    if (node.sockets && node.cores_per_socket && node.threads_per_core && node.cpus &&
        node.cpus != node.sockets * node.cores_per_socket * node.threads_per_core)
      warning(nodes.file, node.line, who + ": CPUs=" + std::to_string(node.cpus) + " is not Sockets x CoresPerSocket x ThreadsPerCore");
  }
};

}  // namespace

GresCheck check_gres(const ParsedGres& gres, const ParsedNodes& nodes, SlurmRelease version) {
  GresCheck out;
  out.errors.insert(out.errors.end(), gres.errors.begin(), gres.errors.end());
  out.errors.insert(out.errors.end(), nodes.errors.begin(), nodes.errors.end());

  bool any_gpu_node = false;
  for (const auto& l : nodes.lines)
    for (const auto& [spec, n] : l.gres) any_gpu_node |= spec.rfind("gpu", 0) == 0;
  bool any_gpu_line = std::any_of(gres.lines.begin(), gres.lines.end(), [](const auto& g) { return ascii_lower(g.name) == "gpu"; });
  if ((any_gpu_node || any_gpu_line) && std::find(nodes.gres_types.begin(), nodes.gres_types.end(), "gpu") == nodes.gres_types.end())
    out.errors.push_back({nodes.file, 0, "no GresTypes=gpu: slurmctld rejects Gres=gpu (\"Invalid generic resource\")"});
  for (const auto& g : gres.lines)
    if (!g.autodetect && g.name.empty()) out.errors.push_back({gres.file, g.line, "a line without Name="});

  // Node → its NodeName line; node → the gres.conf lines that apply to it.
  std::map<std::string, int> node_line;
  for (int i = 0; i < static_cast<int>(nodes.lines.size()); ++i)
    for (const auto& n : nodes.lines[i].nodes) {
      auto [it, added] = node_line.emplace(n, i);
      if (!added) out.warnings.push_back({nodes.file, nodes.lines[i].line, n + " is also on line " +
                                                                              std::to_string(nodes.lines[it->second].line)});
    }
  std::vector<int> global;
  std::map<std::string, std::vector<int>> lines_of;
  std::set<std::string> unknown;
  for (int i = 0; i < static_cast<int>(gres.lines.size()); ++i) {
    const GresConfLine& g = gres.lines[i];
    if (!g.has_nodes) { global.push_back(i); continue; }
    for (const auto& n : g.nodes) {
      if (!node_line.count(n)) unknown.insert(n);
      lines_of[n].push_back(i);
    }
  }
  if (!unknown.empty())
    out.warnings.push_back({gres.file, 0, "lines for nodes without a NodeName line (ignored by slurmd): " +
                                              compress_hostlist({unknown.begin(), unknown.end()})});

  // Group nodes that see the same lines: each group is checked once.
  std::map<std::pair<int, std::vector<int>>, std::vector<std::string>> groups;
  for (const auto& [name, line] : node_line) {
    std::vector<int> mine = global;
    if (auto it = lines_of.find(name); it != lines_of.end()) mine.insert(mine.end(), it->second.begin(), it->second.end());
    std::sort(mine.begin(), mine.end());
    groups[{line, mine}].push_back(name);
  }
  Checker checker{gres, nodes, core_rule(version), out};
  for (const auto& [key, names] : groups) checker.check_group(compress_hostlist(names), nodes.lines[key.first], key.second);
  return out;
}

}  // namespace slurmtopo
