// The anomaly block the text reports end with (inspect's fabric anomalies, the node join's):
// "<title>: N  <kind> n  <kind> n (k HCAs)" and then one line per anomaly, so both read alike.
#pragma once

#include <map>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

namespace slurmtopo {

// `Found` has kind (an enum with to_string and finding_kind), subject, detail and count:
// Anomaly, NodeAnomaly. A kind whose lines are about more things than lines (one
// unresolved-hca line per leaf) says how many: "unresolved-hca 19 (74 HCAs)".
template <typename Found>
void write_anomaly_summary(std::ostream& out, std::string_view title, const std::vector<Found>& found) {
  std::map<decltype(Found::kind), std::pair<int, int>> kinds;  // lines, things
  for (const auto& a : found) ++kinds[a.kind].first, kinds[a.kind].second += a.count;
  out << title << ": " << found.size();
  for (auto [k, n] : kinds) {
    out << "  " << to_string(k) << " " << n.first;
    if (n.second != n.first) out << " (" << n.second << " " << finding_kind(k).counts << ")";
  }
  out << "\n";
  for (const auto& a : found) out << "  " << to_string(a.kind) << "  " << a.subject << ": " << a.detail << "\n";
}

}  // namespace slurmtopo
