// Lines that ibnetdiscover mixes into its output and that carry no node or cable, in whatever
// form (plain, -p, -g) it was run: so that every reader skips or records the same ones.
#pragma once

#include <string_view>

namespace slurmtopo {

// stderr mixed into the dump when a port does not answer: "src/query_smp.c:195; umad (DR path
// slid 0; ...) bad status 110; ...", "ibwarn: [1234] ...", "ibnetdiscover: iberror: ...".
// The sweep is partial: readers record these lines in Fabric::partial.
bool is_ibnetdiscover_diagnostic(std::string_view line);

// -s (--show): one line per node as the sweep meets it, before the output proper, e.g.
// `DR path slid 0; dlid 0; 0,1 -> new Switch {b83fd20300a00000} portnum 0 lid 0-0 ""`
// (libibnetdisc's dump_endnode; "Lid 5 DR path ..." once LIDs are routed). Nothing in them is
// not also in the output that follows, so readers skip them.
bool is_ibnetdiscover_progress(std::string_view line);

}  // namespace slurmtopo
