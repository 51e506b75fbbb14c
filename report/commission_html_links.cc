// The link health section: the cable findings with switch and port, then per leaf its down
// and up capacity (oversubscription) and its uplinks against its peers'.
#include <cstdio>
#include <ostream>
#include <set>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

std::string gbps(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

}  // namespace

void html_links(const CommissionReport& r, std::ostream& out) {
  out << "<section id=\"links\"><h2>Link health</h2>\n";
  // The cable findings are those of the checks about cables (their kinds declare it,
  // graph/finding_kind.h): the sweep, the cabling, the uplinks and the rails, crossed ones
  // included; an information finding (a storage leaf recognised) is no cable to fix.
  static const std::set<std::string> cable_checks{"fabric.sweep", "fabric.cabling", "fabric.uplinks", "fabric.rails"};
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.findings.size(); ++i)
    if (cable_checks.count(r.findings[i].check) && r.findings[i].severity != Severity::Info)
      rows.push_back({"#" + std::to_string(i), r.findings[i].kind, r.findings[i].subject, r.findings[i].detail});
  if (rows.empty()) out << "<p class=\"none\">No degraded, missing, crossed or looped cable.</p>\n";
  else html_table(out, "Cables: degraded, missing, crossed (miscabled rails) and looped", {"#", "kind", "switch / port / host", "detail"}, rows);

  rows.clear();
  std::vector<std::string> cls;
  for (const auto& l : r.leaves) {
    const bool short_up = l.peer_uplinks > 0 && l.uplinks < l.peer_uplinks;
    const std::string ratio = l.up_gbps > 0 ? [&] {
      char b[32];
      std::snprintf(b, sizeof b, "%.2f:1", l.down_gbps / l.up_gbps);
      return std::string(b);
    }() : "-";
    rows.push_back({l.leaf, l.group, std::to_string(l.host_ports), gbps(l.down_gbps), std::to_string(l.uplinks),
                    l.peer_uplinks ? std::to_string(l.peer_uplinks) : "-", gbps(l.up_gbps), ratio});
    cls.push_back(short_up ? "fail" : "");
  }
  if (!rows.empty())
    html_table(out, "Leaves: capacity down to hosts and up to the next level (Gb/s), uplinks against peers",
               {"leaf", "group", "host ports", "down Gb/s", "uplinks", "peers' uplinks", "up Gb/s", "down:up"}, rows, cls);
  out << "</section>\n";
}

}  // namespace slurmtopo
