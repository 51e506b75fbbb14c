// The link health section: the cable findings with switch and port (the port counters' among
// them), then, where --counters gave port counters, one line per input and the cable ends above
// their thresholds, then per leaf its down and up capacity (oversubscription) and its uplinks
// against its peers'. Without --counters nothing is said about counters.
#include <cstdio>
#include <ostream>
#include <set>

#include "graph/link_health.h"
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
  // graph/finding_kind.h): the sweep, the cabling, the errors the port counters show, the
  // uplinks and the rails, crossed ones included; an information finding (a storage leaf
  // recognised) is no cable to fix.
  static const std::set<std::string> cable_checks{"fabric.sweep", "fabric.cabling", "fabric.errors", "fabric.uplinks",
                                                  "fabric.rails"};
  const bool counters = !r.counter_sources.empty();
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.findings.size(); ++i)
    if (cable_checks.count(r.findings[i].check) && r.findings[i].severity != Severity::Info)
      rows.push_back({"#" + std::to_string(i), r.findings[i].kind, r.findings[i].subject, r.findings[i].detail});
  if (rows.empty())
    out << "<p class=\"none\">No degraded, missing, crossed or looped cable"
        << (counters ? ", and none counting errors above its thresholds" : "") << ".</p>\n";
  else
    html_table(out,
               counters ? "Cables: degraded, missing, crossed (miscabled rails), looped and counting errors"
                        : "Cables: degraded, missing, crossed (miscabled rails) and looped",
               {"#", "kind", "switch / port / host", "detail"}, rows);

  if (counters) {
    for (const CounterSource& s : r.counter_sources)
      out << "<p class=\"meta\">" << html_escape(counter_source_summary(s)) << "</p>\n";
    rows.clear();
    std::vector<std::string> cls;
    for (const CableHealthRow& h : cable_health_rows(r)) {
      rows.push_back({h.cable, h.counters, h.where});
      cls.push_back(h.severity == Severity::Info ? "" : to_string(h.severity));
    }
    if (rows.empty()) out << "<p class=\"none\">No cable end counts above its thresholds.</p>\n";
    else
      html_table(out, "Port counters: cable ends above their thresholds",
                 {"cable (this end first)", "counters above their thresholds", "read from"}, rows, cls);
  }

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
