// The cables `whatif --drain-errored` takes out: every cable with an end whose port counters
// (graph/link_health.h) are over a threshold of the cable-errors kind — the cable or a
// transceiver is bad, and replacing it means taking it out first. Congestion (discards,
// XmitWait: traffic), upstream errors (packets that were bad on arrival: another cable's fault)
// and config errors (P_Key, relay, VL15) remove nothing: the cable is not what is wrong.
#pragma once

#include <vector>

#include "graph/cluster.h"
#include "simulate/whatif/whatif_edits.h"

namespace slurmtopo {

// One per cable, whichever of its ends counted and however many inputs gave the end (the
// first input's counters, as the findings keep them); by fabric, then cable name in natural
// order, so the same input describes the same edits byte for byte. Throws
// InputError("--drain-errored", ...) when no counters were read (no --counters, no snapshot
// that carries them), or when none is over a cable-errors threshold: a run with nothing
// drained would only compare the fabric with itself.
std::vector<ErroredCable> cables_to_drain(const Cluster& cluster);

}  // namespace slurmtopo
