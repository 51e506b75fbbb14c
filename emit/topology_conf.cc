#include "emit/topology_conf.h"

#include <sstream>

#include "base/text.h"
#include "base/version.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
constexpr size_t kMembersListed = 6;

std::string members_comment(const SlurmSwitch& s) {
  if (s.members.empty()) return "# joins parts of one fabric that have no common switch\n";
  if (s.members.size() == 1 && s.members.front() == s.name) return "";
  std::string out = "# " + std::to_string(s.members.size()) + (s.members.size() == 1 ? " switch: " : " switches: ");
  for (size_t i = 0; i < s.members.size() && i < kMembersListed; ++i) out += (i ? " " : "") + s.members[i];
  if (s.members.size() > kMembersListed) out += " … (+" + std::to_string(s.members.size() - kMembersListed) + ")";
  return out + "\n";
}
}  // namespace

std::string render_topology_conf(const SlurmTree& tree, const TopologyHeader& header) {
  size_t nodes = 0, leaves = 0;
  int levels = 0;
  for (const auto& s : tree.switches) {
    nodes += s.nodes.size();
    leaves += s.children.empty();
    levels = std::max(levels, s.level);
  }
  std::ostringstream out;
  out << "# topology.conf for Slurm's topology/tree plugin, written by slurmtopo " << slurmtopo_version() << ".\n"
      << "# Regenerate rather than edit:";
  out << "\n#   " << header.command << "\n";
  if (!header.release.empty()) out << "# for " << header.release << "\n";
  for (const auto& src : header.sources) out << "# " << src << "\n";
  out << "# " << counted(nodes, "node", "nodes") << " under " << counted(leaves, "leaf switch", "leaf switches") << ", "
      << counted(tree.switches.size(), "switch", "switches") << ", " << levels << (levels == 1 ? " level, " : " levels, ") << tree.roots().size()
      << (tree.roots().size() == 1 ? " root" : " roots") << "\n";
  int last_level = 0;
  for (const auto& s : tree.switches) {
    if (s.level != last_level) {
      out << "\n# level " << s.level << (s.level == 1 ? ": leaves" : "") << "\n";
      last_level = s.level;
    }
    out << members_comment(s) << "SwitchName=" << s.name;
    if (!s.children.empty()) {
      std::vector<std::string> names;
      for (int c : s.children) names.push_back(tree.switches[c].name);
      out << " Switches=" << compress_hostlist(std::move(names));
    } else {
      out << " Nodes=" << compress_hostlist(s.nodes);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace slurmtopo
