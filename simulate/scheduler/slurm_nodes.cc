#include "simulate/scheduler/slurm_nodes.h"

#include <unordered_map>

#include "base/input_error.h"
#include "base/numbers.h"
#include "slurm/config_lines.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

std::vector<std::pair<std::string, std::string>> assignments(const std::string& option, const std::string& spec) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (char c : spec) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  std::vector<std::pair<std::string, std::string>> out;
  std::string pending;
  for (const auto& p : parts) {
    const size_t eq = p.rfind('=');
    if (eq == std::string::npos) {
      pending += (pending.empty() ? "" : ",") + p;
      continue;
    }
    out.emplace_back(pending + (pending.empty() ? "" : ",") + p.substr(0, eq), p.substr(eq + 1));
    pending.clear();
  }
  if (!pending.empty()) throw InputError(option, 0, "expected HOSTLIST=VALUE, got '" + pending + "'");
  return out;
}

}  // namespace

std::vector<SlurmNode> slurm_nodes(const std::vector<std::string>& names, const std::string& weights,
                                   const std::string& cpus) {
  std::vector<SlurmNode> nodes;
  std::unordered_map<std::string, size_t> where;
  for (const auto& n : names) {
    if (where.count(n)) continue;
    where[n] = nodes.size();
    nodes.push_back({n, 1, 1});
  }
  auto apply = [&](const std::string& option, const std::string& spec, auto&& set) {
    if (spec.empty()) return;
    if (spec.find('=') == std::string::npos) {  // one value for every node
      for (auto& node : nodes) set(node, spec);
      return;
    }
    for (const auto& [list, value] : assignments(option, spec))
      for (const auto& n : expand_hostlist_at(list, option)) {
        auto it = where.find(n);
        if (it == where.end()) throw InputError(option, 0, "node " + n + " is not in --nodes");
        set(nodes[it->second], value);
      }
  };
  apply("--weights", weights, [](SlurmNode& n, const std::string& v) { n.weight = parse_whole_number("--weights", v, 0); });
  apply("--cpus", cpus, [](SlurmNode& n, const std::string& v) { n.cpus = static_cast<int>(parse_whole_number("--cpus", v, 1)); });
  return nodes;
}

namespace {

// Weight= and CPUs= of a NodeName line after its DEFAULT lines (later words win, as in Slurm).
void read_attributes(std::string_view text, const std::string& file, int line, SlurmNode& node) {
  for (std::string_view word : slurm_conf_words(text)) {
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = word.substr(0, eq), value = word.substr(eq + 1);
    auto at = [&](const char* what) { return file + ":" + std::to_string(line) + " " + what; };
    if (iequals(key, "Weight")) node.weight = parse_whole_number(at("Weight="), std::string(value), 0);
    if (iequals(key, "CPUs") || iequals(key, "Procs"))
      node.cpus = static_cast<int>(parse_whole_number(at("CPUs="), std::string(value), 1));
  }
}

}  // namespace

std::vector<SlurmNode> slurm_conf_nodes(const SlurmConf& conf, const std::string& conf_file,
                                        const std::vector<std::string>& partition, const std::string& weights,
                                        const std::string& cpus) {
  std::unordered_map<std::string, SlurmNode> known;
  std::vector<std::string> order;
  for (const SlurmNodeLine& l : conf.node_lines) {
    SlurmNode attributes;
    std::string_view defaults = l.defaults;
    while (!defaults.empty()) {
      const size_t end = defaults.find('\n');
      read_attributes(defaults.substr(0, end), l.file, l.line, attributes);
      defaults.remove_prefix(end == std::string_view::npos ? defaults.size() : end + 1);
    }
    read_attributes(l.text, l.file, l.line, attributes);
    for (const auto& n : l.names) {
      attributes.name = n;
      if (known.emplace(n, attributes).second) order.push_back(n);
    }
  }
  const std::vector<std::string>& names = partition.empty() ? order : partition;
  std::vector<SlurmNode> nodes = slurm_nodes(names, weights, cpus);
  for (SlurmNode& n : nodes) {
    auto it = known.find(n.name);
    if (it == known.end()) throw InputError("--nodes", 0, "node " + n.name + " is not in " + conf_file);
    if (weights.empty()) n.weight = it->second.weight;
    if (cpus.empty()) n.cpus = it->second.cpus;
  }
  return nodes;
}

}  // namespace slurmtopo
