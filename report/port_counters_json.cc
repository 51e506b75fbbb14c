#include "report/port_counters_json.h"

namespace slurmtopo {

void add_port_counters_json(nlohmann::ordered_json& j, const std::vector<CounterSource>& sources,
                            const std::vector<CableEndHealth>& cable_health,
                            const std::vector<std::string>& fabric_names) {
  using json = nlohmann::ordered_json;
  j["port_counters"] = json::array();
  for (const CounterSource& s : sources)
    j["port_counters"].push_back({{"source", s.source}, {"form", s.form}, {"read_at", s.read_at},
                                  {"interval_s", s.interval_s}, {"ports", s.ports}, {"matched", s.matched},
                                  {"no_cable", s.no_cable}, {"unknown", s.unknown}, {"ambiguous", s.ambiguous},
                                  {"summed", s.summed}, {"failed_queries", s.failed_queries}});
  j["cable_health"] = json::array();
  for (const CableEndHealth& h : cable_health) {
    json counters = json::object();
    for (size_t i = 0; i < kPortCounterCount; ++i) {
      const auto k = static_cast<PortCounter>(i);
      if (!h.counters.has(k)) continue;
      json v = {{"value", h.counters[k]}, {"at_least", h.counters.maxed(k)}, {"over_threshold", (h.over >> i & 1) != 0}};
      if (h.counters.has_rate(k)) v["per_second"] = h.counters.per_second[i];
      counters[to_string(k)] = std::move(v);
    }
    j["cable_health"].push_back({{"cable", h.cable}, {"fabric", fabric_names.at(h.fabric)},
                                 {"source", sources.at(h.source).source}, {"line", h.counters.line},
                                 {"over_threshold", h.over != 0}, {"counters", std::move(counters)}});
  }
}

}  // namespace slurmtopo
