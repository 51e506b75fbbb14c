// The anomaly block the text reports end with (inspect's fabric anomalies, the node join's):
// "<title>: N  <kind> n  <kind> n" and then one line per anomaly, so both read alike.
#pragma once

#include <map>
#include <ostream>
#include <string_view>
#include <vector>

namespace slurmtopo {

// `Found` has kind (an enum with to_string), subject and detail: Anomaly, NodeAnomaly.
template <typename Found>
void write_anomaly_summary(std::ostream& out, std::string_view title, const std::vector<Found>& found) {
  std::map<decltype(Found::kind), int> kinds;
  for (const auto& a : found) ++kinds[a.kind];
  out << title << ": " << found.size();
  for (auto [k, n] : kinds) out << "  " << to_string(k) << " " << n;
  out << "\n";
  for (const auto& a : found) out << "  " << to_string(a.kind) << "  " << a.subject << ": " << a.detail << "\n";
}

}  // namespace slurmtopo
