#include "emit/gres_check.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>

#include "discover/slurm_conf_lines.h"
#include "graph/hostlist.h"

namespace slurmtopo {
namespace {

struct Pair {
  std::string key;  // lower case
  std::string value;
};

// key=value tokens separated by white space; values may be double-quoted.
bool split_pairs(const std::string& text, std::vector<Pair>& out, std::string& error) {
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) return true;
    size_t eq = text.find('=', i);
    size_t space = text.find_first_of(" \t\r", i);
    if (eq == std::string::npos || (space != std::string::npos && space < eq)) {
      error = "expected key=value, found \"" + text.substr(i, space == std::string::npos ? std::string::npos : space - i) + "\"";
      return false;
    }
    Pair p{ascii_lower(text.substr(i, eq - i)), ""};
    i = eq + 1;
    if (i < text.size() && text[i] == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string::npos) { error = "unterminated quote after " + p.key + "="; return false; }
      p.value = text.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      size_t stop = text.find_first_of(" \t\r", i);
      p.value = text.substr(i, stop == std::string::npos ? std::string::npos : stop - i);
      i = stop == std::string::npos ? text.size() : stop;
    }
    out.push_back(std::move(p));
  }
}

bool parse_int(std::string_view s, long& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// "0-13,28-41" (Cores=) into a sorted list; false on anything else.
bool parse_ranges(const std::string& s, std::vector<int>& out) {
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t dash = item.find('-');
    long lo = 0, hi = 0;
    if (!parse_int(item.substr(0, dash), lo)) return false;
    hi = lo;
    if (dash != std::string::npos && !parse_int(item.substr(dash + 1), hi)) return false;
    if (lo < 0 || hi < lo || hi - lo > 1 << 20) return false;
    for (long v = lo; v <= hi; ++v) out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return true;
}

// "-1,6,6,6" (Links=): order matters, no ranges.
bool parse_list(const std::string& s, std::vector<int>& out) {
  size_t pos = 0;
  while (true) {
    size_t comma = s.find(',', pos);
    long v = 0;
    if (!parse_int(std::string_view(s).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos), v))
      return false;
    out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) return true;
    pos = comma + 1;
  }
}

// The trailing number of a device file ("/dev/nvidia12" → 12), -1 without one.
long device_number(const std::string& file) {
  size_t end = file.size(), start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(file[start - 1]))) --start;
  long n = -1;
  if (start < end) parse_int(std::string_view(file).substr(start), n);
  return n;
}

const std::set<std::string> kGresKeys = {"autodetect", "count", "cpus", "cores", "file", "files", "flags",
                                         "links", "link", "multiplefiles", "name", "type", "nodename"};

}  // namespace

ParsedGres parse_gres_conf(std::string_view text, const std::string& file) {
  ParsedGres out;
  out.file = file;
  for (const SlurmConfLine& l : read_slurm_conf_lines(text)) {
    std::vector<Pair> pairs;
    std::string error;
    auto fail = [&](const std::string& m) { out.errors.push_back({file, l.number, m}); };
    if (!split_pairs(l.text, pairs, error)) { fail(error); continue; }
    if (pairs.empty()) continue;
    if (pairs.front().key == "include") {
      out.errors.push_back({file, l.number, "Include is not followed by slurmtopo's check"});
      continue;
    }
    if (pairs.front().key != "nodename" && pairs.front().key != "name" && pairs.front().key != "autodetect") {
      fail("a gres.conf line starts with NodeName=, Name= or AutoDetect=, not " + pairs.front().key + "=");
      continue;
    }
    GresConfLine g;
    g.line = l.number;
    bool bad = false;
    for (const Pair& p : pairs) {
      if (!kGresKeys.count(p.key)) {
        fail("unknown key \"" + p.key + "\" (slurmd is fatal on it; there is no CoreCnt)");
        bad = true;
        continue;
      }
      try {
        if (p.key == "nodename") g.has_nodes = true, g.nodes = expand_hostlist(p.value);
        else if (p.key == "name") g.name = p.value;
        else if (p.key == "type") g.type = p.value;
        else if (p.key == "autodetect") g.autodetect = true;
        else if (p.key == "file" || p.key == "files" || p.key == "multiplefiles") {
          for (auto& f : expand_hostlist(p.value)) g.files.push_back(std::move(f));
        } else if (p.key == "cores" || p.key == "cpus") {
          g.has_cores = true;
          if (!parse_ranges(p.value, g.cores)) fail("Cores=" + p.value + ": expected core id ranges like 0-13,28-41"), bad = true;
        } else if (p.key == "links" || p.key == "link") {
          g.has_links = true;
          if (!parse_list(p.value, g.links)) fail("Links=" + p.value + ": expected a comma list of integers"), bad = true;
        } else if (p.key == "count") {
          g.has_count = true;
          if (!parse_int(p.value, g.count) || g.count < 0) fail("Count=" + p.value + ": expected a number"), bad = true;
        }
      } catch (const std::invalid_argument& e) {
        fail(e.what());
        bad = true;
      }
    }
    if (!bad) out.lines.push_back(std::move(g));
  }
  return out;
}

ParsedNodes parse_node_conf(std::string_view text, const std::string& file) {
  ParsedNodes out;
  out.file = file;
  NodeConfLine defaults;
  for (const SlurmConfLine& l : read_slurm_conf_lines(text)) {
    std::vector<Pair> pairs;
    std::string error;
    auto fail = [&](const std::string& m) { out.errors.push_back({file, l.number, m}); };
    if (!split_pairs(l.text, pairs, error)) {
      // Other slurm.conf lines (e.g. PartitionName with odd syntax) are not ours to judge.
      if (ascii_lower(l.text).find("nodename") != std::string::npos) fail(error);
      continue;
    }
    if (pairs.empty()) continue;
    if (pairs.front().key == "grestypes") {
      size_t pos = 0;
      const std::string& v = pairs.front().value;
      while (pos <= v.size()) {
        size_t comma = v.find(',', pos);
        out.gres_types.push_back(ascii_lower(v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
      continue;
    }
    if (pairs.front().key != "nodename") continue;
    NodeConfLine n = defaults;
    n.line = l.number;
    n.nodes.clear();
    bool is_default = ascii_lower(pairs.front().value) == "default";
    try {
      if (!is_default) n.nodes = expand_hostlist(pairs.front().value);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
      continue;
    }
    for (size_t i = 1; i < pairs.size(); ++i) {
      const Pair& p = pairs[i];
      long v = 0;
      auto number = [&](auto& field) {
        if (!parse_int(p.value, v) || v < 0) fail(p.key + "=" + p.value + ": expected a number");
        else field = static_cast<std::remove_reference_t<decltype(field)>>(v);
      };
      if (p.key == "cpus" || p.key == "procs") number(n.cpus);
      else if (p.key == "sockets") number(n.sockets);
      else if (p.key == "corespersocket") number(n.cores_per_socket);
      else if (p.key == "threadspercore") number(n.threads_per_core);
      else if (p.key == "realmemory") number(n.real_memory);
      else if (p.key == "gres") {
        n.gres.clear();
        size_t pos = 0;
        while (pos <= p.value.size()) {
          size_t comma = p.value.find(',', pos);
          std::string item = p.value.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
          // name[:type][:count]; the count is the last field when it is a number.
          size_t last = item.rfind(':');
          long count = 1;
          std::string spec = item;
          if (last != std::string::npos && parse_int(item.substr(last + 1), count)) spec = item.substr(0, last);
          n.gres.emplace_back(ascii_lower(spec), count);
          if (comma == std::string::npos) break;
          pos = comma + 1;
        }
      }
    }
    if (is_default) defaults = n;
    else out.lines.push_back(std::move(n));
  }
  return out;
}

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
