// Port counters for node_exporter's textfile collector: one series per cable end and non-zero
// counter, named as node_exporter's own infiniband collector names them
// (node_infiniband_symbol_error_total → slurmtopo_infiniband_symbol_error_total), and labelled
// with the cable's switch, port, host and HCA. node_exporter sees only a node's own HCAs; these
// name the switch side too, both ends of every cable.
#pragma once

#include <cstdint>
#include <string>

#include "graph/cluster.h"

namespace slurmtopo {

// The textfile's content: every Cluster::cable_health end's non-zero counters, the cable ends
// above a threshold per finding kind, and `now` (Unix time) as when they were read.
std::string counters_textfile(const Cluster& cluster, int64_t now);

// Writes DIR/slurmtopo_counters.prom atomically (node_exporter must never read half a file;
// apply's DIR/slurmtopo.prom is another file).
void write_counters_textfile(const std::string& dir, const Cluster& cluster, int64_t now);

}  // namespace slurmtopo
