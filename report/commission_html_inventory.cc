// The inventory section: fabrics, switches per level and model, HCAs, hosts, rails, groups,
// node classes.
#include <ostream>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

std::vector<std::vector<std::string>> count_rows(const std::vector<CountRow>& rows) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rows) out.push_back({r.name, std::to_string(r.count)});
  return out;
}

}  // namespace

void html_inventory(const CommissionReport& r, std::ostream& out) {
  const Inventory& inv = r.inventory;
  out << "<section id=\"inventory\"><h2>Inventory</h2>\n";
  std::vector<std::vector<std::string>> fabrics;
  for (const auto& f : inv.fabrics)
    fabrics.push_back({f.name, f.source, std::to_string(f.switches), std::to_string(f.cas), std::to_string(f.cables),
                       std::to_string(f.components), f.partial ? "partial" : "complete"});
  html_table(out, "Fabrics (one per subnet; a fabric in several parts is several planes)",
             {"fabric", "source", "switches", "CAs", "cables", "parts", "sweep"}, fabrics);
  html_table(out, "Hosts and HCAs", {"what", "count"},
             {{"hosts (grouped)", std::to_string(inv.hosts)},
              {"groups (Slurm leaf switches)", std::to_string(inv.groups)},
              {"compute HCAs", std::to_string(inv.hcas)},
              {"HCAs without a host name", std::to_string(inv.unresolved_hcas)},
              {"rails", std::to_string(inv.rails.size())},
              {"SHARP aggregation nodes", std::to_string(inv.aggregation_nodes)},
              {"director chassis", std::to_string(inv.chassis)}});
  html_table(out, "Switches per level", {"level", "switches"}, count_rows(inv.switches_by_level));
  html_table(out, "Switches per model", {"model", "switches"}, count_rows(inv.switches_by_model));
  if (!inv.rails.empty()) html_table(out, "Rails: leaves their HCAs land on", {"rail", "leaves"}, count_rows(inv.rails));
  if (!inv.node_classes.empty())
    html_table(out, "Node classes (one NodeName line and one set of gres.conf lines each)", {"hosts", "count"},
               count_rows(inv.node_classes));
  out << "</section>\n";
}

}  // namespace slurmtopo
