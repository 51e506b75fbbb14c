#include "slurm/topology_yaml.h"

#include <cctype>
#include <set>
#include <sstream>

#include "base/input_error.h"
#include "base/yaml_fields.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

const std::vector<std::string> kEntryKeys = {"topology", "cluster_default", "tree", "block", "flat"};

void only_keys(const YamlFields& f, const YAML::Node& map, const std::vector<std::string>& allowed,
               const std::string& what) {
  if (!map.IsMap()) f.fail(map, "expected " + what + " to be a mapping");
  for (const auto& kv : map) {
    // `? [a, b]: x` is a YAML key that is not a string; no Slurm key looks like that.
    if (!kv.first.IsScalar()) f.fail(kv.first, "expected the keys of " + what + " to be words, like `switch`");
    const std::string key = kv.first.Scalar();
    bool known = false;
    for (const auto& a : allowed) known |= a == key;
    if (!known)
      f.fail(kv.first, "unknown key `" + key + "` in " + what + " (expected " + YamlFields::join(allowed) +
                           "); slurmctld would ignore it silently");
  }
}

std::vector<std::string> hostlist(const YamlFields& f, const YAML::Node& v, const std::string& key) {
  const std::string text = f.text(v, key);
  try {
    return expand_hostlist(text);
  } catch (const std::invalid_argument& e) {
    f.fail(v, "expected `" + key + "` to be a hostlist: " + e.what());
  }
}

ParsedTopology read_tree(const YamlFields& f, const YAML::Node& tree) {
  only_keys(f, tree, {"switches"}, "tree");
  ParsedTopology out;
  out.file = f.file();
  const YAML::Node switches = tree["switches"];
  if (!switches || !switches.IsSequence()) f.fail(tree, "expected `switches` to be a list under tree");
  for (const auto& s : switches) {
    only_keys(f, s, {"switch", "children", "nodes"}, "a switch");
    if (!s["switch"]) f.fail(s, "Can't create a switch without a name: expected `switch: NAME`");
    TopologyLine line;
    line.line = yaml_line(s["switch"]);
    line.name = f.text(s["switch"], "switch");
    if (s["children"]) {
      line.has_switches = true;
      line.switches_expr = f.text(s["children"], "children");
      line.switches = hostlist(f, s["children"], "children");
    }
    if (s["nodes"]) {
      line.has_nodes = true;
      line.nodes_expr = f.text(s["nodes"], "nodes");
      line.nodes = hostlist(f, s["nodes"], "nodes");
    }
    if (line.has_nodes && line.has_switches)
      f.fail(s, "switch " + line.name + " has both `children` and `nodes` (slurmctld would ignore its children)");
    out.switches.push_back(std::move(line));
  }
  return out;
}

BlockTopology read_block(const YamlFields& f, const YAML::Node& block) {
  only_keys(f, block, {"block_sizes", "blocks"}, "block");
  BlockTopology out;
  out.file = f.file();
  if (const YAML::Node sizes = block["block_sizes"]) {
    if (!sizes.IsSequence()) f.fail(sizes, "expected `block_sizes` to be a list of node counts");
    out.block_sizes_line = yaml_line(sizes);
    for (const auto& v : sizes) out.block_sizes.push_back(f.integer(v, "block_sizes", 1, 1 << 30));
  }
  const YAML::Node blocks = block["blocks"];
  if (!blocks || !blocks.IsSequence()) f.fail(block, "expected `blocks` to be a list under block");
  for (const auto& b : blocks) {
    only_keys(f, b, {"block", "nodes"}, "a block");
    if (!b["block"]) f.fail(b, "expected `block: NAME`");
    BlockLine line;
    line.line = yaml_line(b["block"]);
    line.name = f.text(b["block"], "block");
    if (!b["nodes"]) f.fail(b, "block " + line.name + " hasn't got nodes");
    line.nodes = hostlist(f, b["nodes"], "nodes");
    out.blocks.push_back(std::move(line));
  }
  return out;
}

// A plain YAML scalar where that reads back as the same string, else double-quoted.
std::string scalar(const std::string& s) {
  bool plain = !s.empty() && std::isalnum(static_cast<unsigned char>(s.front()));
  for (char c : s) plain &= std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_.[],").find(c) != std::string_view::npos;
  if (plain && s != "true" && s != "false" && s != "null" && s != "yes" && s != "no") return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

const char* to_string(YamlTopology::Kind kind) {
  switch (kind) {
    case YamlTopology::Kind::Tree: return "tree";
    case YamlTopology::Kind::Block: return "block";
    case YamlTopology::Kind::Flat: return "flat";
  }
  return "?";
}

const YamlTopology* TopologyYaml::cluster_default() const {
  for (const auto& t : topologies)
    if (t.cluster_default) return &t;
  return topologies.size() == 1 ? &topologies.front() : nullptr;
}

bool is_topology_yaml(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#' || line.compare(start, 3, "---") == 0) continue;
    return line[start] == '-' || line.compare(start, 9, "topology:") == 0;
  }
  return false;
}

TopologyYaml parse_topology_yaml(std::string_view text, const std::string& file) {
  const YAML::Node doc = load_yaml(std::string(text), file);
  const YamlFields f(file);
  if (!doc.IsSequence()) f.fail(doc, "expected a list of `- topology: NAME` entries");
  TopologyYaml out;
  out.file = file;
  std::set<std::string> names;
  int defaults = 0;
  for (const auto& entry : doc) {
    // 26.05's other plugins: read by slurmctld, not emulated here; said as such rather than as
    // an unknown key.
    for (const char* plugin : {"ring", "torus3d"})
      if (entry.IsMap() && entry[plugin])
        f.fail(entry[plugin], std::string("topology ") + (entry["topology"] ? entry["topology"].Scalar() : "?") +
                                  " uses topology/" + plugin +
                                  " (Slurm 26.05), which slurmtopo does not read or emulate yet: it reads tree, "
                                  "block and flat topologies");
    only_keys(f, entry, kEntryKeys, "a topology entry");
    if (!entry["topology"]) f.fail(entry, "expected `topology: NAME`");
    YamlTopology t;
    t.line = yaml_line(entry["topology"]);
    t.name = f.text(entry["topology"], "topology");
    if (!names.insert(t.name).second) f.fail(entry["topology"], "topology " + t.name + " is defined twice");
    if (entry["cluster_default"]) t.cluster_default = f.boolean(entry["cluster_default"], "cluster_default");
    if (t.cluster_default && ++defaults > 1)
      f.fail(entry["cluster_default"], "more than one topology has cluster_default: true");
    const int kinds = !!entry["tree"] + !!entry["block"] + !!entry["flat"];
    if (kinds != 1) f.fail(entry, "expected exactly one of `tree`, `block`, `flat` in topology " + t.name);
    if (entry["tree"]) {
      t.kind = YamlTopology::Kind::Tree;
      t.tree = read_tree(f, entry["tree"]);
    } else if (entry["block"]) {
      t.kind = YamlTopology::Kind::Block;
      t.block = read_block(f, entry["block"]);
    } else {
      if (!f.boolean(entry["flat"], "flat")) f.fail(entry["flat"], "expected `flat: true`");
      t.kind = YamlTopology::Kind::Flat;
    }
    out.topologies.push_back(std::move(t));
  }
  if (out.topologies.empty()) throw InputError(file, 0, "expected at least one `- topology: NAME` entry");
  return out;
}

std::string render_topology_yaml(const TopologyYaml& yaml, const std::vector<std::string>& comments) {
  std::ostringstream out;
  for (const auto& c : comments) out << (c.empty() ? "#" : "# " + c) << "\n";
  out << "---\n";
  for (const auto& t : yaml.topologies) {
    out << "- topology: " << scalar(t.name) << "\n  cluster_default: " << (t.cluster_default ? "true" : "false") << "\n";
    switch (t.kind) {
      case YamlTopology::Kind::Tree:
        out << "  tree:\n    switches:\n";
        for (const auto& s : t.tree.switches) {
          out << "      - switch: " << scalar(s.name) << "\n";
          if (s.has_switches) out << "        children: " << scalar(compress_hostlist(s.switches)) << "\n";
          if (s.has_nodes) out << "        nodes: " << scalar(compress_hostlist(s.nodes)) << "\n";
        }
        break;
      case YamlTopology::Kind::Block:
        out << "  block:\n";
        if (!t.block.block_sizes.empty()) {
          out << "    block_sizes:\n";
          for (int b : t.block.block_sizes) out << "      - " << b << "\n";
        }
        out << "    blocks:\n";
        for (const auto& b : t.block.blocks)
          out << "      - block: " << scalar(b.name) << "\n        nodes: " << scalar(compress_hostlist(b.nodes)) << "\n";
        break;
      case YamlTopology::Kind::Flat:
        out << "  flat: true\n";
        break;
    }
  }
  return out.str();
}

}  // namespace slurmtopo
