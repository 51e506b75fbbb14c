// What the port counters say about each cable. Every port an input gave is found among the
// fabric's cable ends — by node GUID and port (switches), port GUID and port (HCAs, as
// ibqueryerrors and ibdiagnet name them) or LID and port (perfquery) — and each cable end with a
// counter above its threshold is one finding naming both ends, the counters, and what to do:
//   cable-errors     symbol errors, link recoveries, link downs, receive errors, local link
//                    integrity, buffer overruns: the cable or a transceiver (reseat, replace)
//   upstream-errors  packets that arrived already marked bad: the fault is on an earlier cable
//   congestion       discards and XmitWait: traffic, not the cable
//   config-errors    partition (P_Key) constraint errors, switch relay errors, VL15 drops
// A counter at its all-ones maximum stopped counting (the PMA does not wrap): "at least", and
// never a rate. Ports that name nothing in the fabric are counted, not guessed at.
#pragma once

#include <string>
#include <vector>

#include "discover/port_counters.h"
#include "graph/cable_names.h"
#include "graph/cluster.h"

namespace slurmtopo {

// Which finding a counter above its threshold makes (in Anomaly::Kind terms).
Anomaly::Kind counter_finding(PortCounter counter);

// One line on what an input gave and how it met the fabric: "port counters (ibqueryerrors,
// iqe.txt): 86 ports, 4 on cables, 1 not cabled, 0 unknown to the fabric".
std::string counter_source_summary(const CounterSource& s);

// Appends to c.anomalies, c.counter_sources and c.cable_health. `thresholds` from the site.
void record_link_health(Cluster& c, const std::vector<CounterReadings>& readings,
                        const CounterThresholds& thresholds, const CableNames& names);

}  // namespace slurmtopo
