#include "simulate/whatif/errored_cables.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "base/input_error.h"
#include "graph/cable_names.h"
#include "graph/link_health.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// The bits of `over` whose counters say the cable itself is bad. cable_health also keeps ends
// with counters below every threshold (over == 0) and ends over only other kinds: neither is
// a cable to take out.
uint32_t cable_error_bits(uint32_t over) {
  uint32_t bits = 0;
  for (size_t i = 0; i < kPortCounterCount; ++i)
    if ((over >> i & 1) && counter_finding(static_cast<PortCounter>(i)) == Anomaly::Kind::CableErrors) bits |= 1u << i;
  return bits;
}

// "SymbolErrorCounter 500, LinkDownedCounter at least 255": totals only, as the report's
// link-health list shows them (a rate would make the edit, and so the shard fingerprint,
// depend on the read's timing).
std::string counters_over(const PortCounters& p, uint32_t bits) {
  std::string s;
  for (size_t i = 0; i < kPortCounterCount; ++i) {
    if (!(bits >> i & 1)) continue;
    const auto c = static_cast<PortCounter>(i);
    s += (s.empty() ? "" : ", ") + std::string(to_string(c)) + (p.maxed(c) ? " at least " : " ") + std::to_string(p[c]);
  }
  return s;
}

// "ibqueryerrors.txt (5 of 6 ports on cables)", every input: why nothing was found in them.
std::string sources_read(const Cluster& c) {
  std::string s;
  for (const CounterSource& src : c.counter_sources)
    s += (s.empty() ? "" : ", ") + src.source + " (" + std::to_string(src.matched) + " of " + std::to_string(src.ports) +
         " ports on cables)";
  return s;
}

}  // namespace

std::vector<ErroredCable> cables_to_drain(const Cluster& c) {
  if (c.counter_sources.empty())
    throw InputError("--drain-errored", 0,
                     "no port counters to judge the cables by: give --counters FILE (ibqueryerrors, perfquery or "
                     "ibdiagnet2.pm output), or a --fabric snapshot saved with its counters "
                     "(`slurmtopo discover fabric --counters --save FILE`)");
  std::vector<int> switch_of(boost::num_vertices(c.graph), -1);
  for (int i = 0; i < static_cast<int>(c.switches.size()); ++i) switch_of[c.switches[i].vertex] = i;
  const CableNames names(c, switch_of);

  std::map<std::pair<int, int>, ErroredCable> by_link;  // (fabric, link): both ends over is one cable
  std::set<std::tuple<int, int, bool>> ends_seen;       // an end two inputs gave: the first's counters
  std::set<std::tuple<int, int, bool>> other_kinds;     // ends over congestion, upstream or config only
  for (const CableEndHealth& h : c.cable_health) {
    const uint32_t bits = cable_error_bits(h.over);
    if (!bits) {
      if (h.over) other_kinds.insert({h.fabric, h.link, h.b_end});
      continue;
    }
    if (!ends_seen.insert({h.fabric, h.link, h.b_end}).second) continue;
    const Link& l = c.fabrics[h.fabric].links[h.link];
    const auto [va, vb] = c.link_vertices[h.fabric][h.link];  // both ends are nodes: record_link_health checked
    ErroredCable& e = by_link[{h.fabric, h.link}];
    if (e.cable.empty()) {
      // The switch end first: the port the technician pulls it at, as --remove-cable names it.
      const bool b_first = names.switch_at(va) < 0 && names.switch_at(vb) >= 0;
      const LinkEnd& first = b_first ? l.b : l.a;
      e.fabric = h.fabric;
      e.guid = first.guid;
      e.port = first.port;
      e.cable = (c.fabrics.size() > 1 ? c.fabrics[h.fabric].name + ": " : "") +
                (b_first ? names.cable(vb, l.b.port, va, l.a.port) : names.cable(va, l.a.port, vb, l.b.port));
    }
    e.why += (e.why.empty() ? "" : "; ") + counters_over(h.counters, bits) + " at " +
             names.end(h.b_end ? vb : va, h.b_end ? l.b.port : l.a.port);
  }

  std::vector<ErroredCable> out;
  for (auto& [link, cable] : by_link) out.push_back(std::move(cable));
  std::stable_sort(out.begin(), out.end(), [](const ErroredCable& x, const ErroredCable& y) {
    if (x.fabric != y.fabric) return x.fabric < y.fabric;
    return natural_less(x.cable, y.cable);
  });
  if (out.empty()) {
    const size_t others = other_kinds.size();
    throw InputError("--drain-errored", 0,
                     "no cable end is over a cable-errors threshold in " + sources_read(c) + ": nothing to drain" +
                         (others ? " (" + std::to_string(others) + (others > 1 ? " cable ends are" : " cable end is") +
                                       " over congestion, upstream-errors or config-errors thresholds: not the "
                                       "cable's fault, so not drained)"
                                 : ""));
  }
  return out;
}

}  // namespace slurmtopo
