// Switch linear forwarding tables (LFTs): destination LID → out port, per switch. Read from
// `dump_fts` / `dump_lfts` / `ibroute` text, or computed the way OpenSM's min-hop (D-mod-K)
// and ftree engines would fill them, so tests can feed Lft routing tables whose paths are
// known. The value type lives in discover/lft.h: the fabric model carries the tables.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "discover/lft.h"
#include "graph/cluster.h"

namespace slurmtopo {

// The tables OpenSM's minhop engine would write, with D-mod-K choice among equal next hops
// (see routing.h): for every switch, every LID of the fabric (switches → port 0 on
// themselves, CA ports cabled to a switch). Cost: switches × LIDs bytes.
ForwardingTables compute_minhop_tables(const Cluster& cluster);

// The tables OpenSM's ftree engine would write for the compute HCAs' LIDs (see
// ftree_routing.cc for how closely it follows OpenSM). Other LIDs stay 255.
ForwardingTables compute_ftree_tables(const Cluster& cluster);

// Reads the unicast tables of `dump_fts`, `dump_lfts` (ibroute per switch, concatenated) or
// `ibroute <lid>` output, with or without -a / -n, and OpenSM's opensm-lfts.dump:
//   Unicast lids [0x0-0x1f] of switch Lid 2 guid 0x0002c90200401234 (MF0;sw1:MQM9700/U1):
//     Lid  Out   Destination
//          Port     Info
//   0x0001 001 : (Channel Adapter portguid 0x...: 'gpu001 mlx5_0')
//   0x0002 000 : (Switch portguid 0x...: 'MF0;sw1:MQM9700/U1')
//   2 valid lids dumped
// Multicast blocks, blank lines, '#' comments and dump_lfts' warning lines are skipped.
// Throws InputError(file, line, what was expected) on anything else: an entry outside a
// block, a bad LID or port, a LID twice in one block, a switch twice, a block whose
// "N lids dumped" disagrees with its entries.
ForwardingTables read_forwarding_tables(std::istream& in, const std::string& file);
ForwardingTables read_forwarding_tables_file(const std::string& path);

// Writes `dump_fts -n` style text (no destination column) that read_forwarding_tables reads
// back to the same tables. With a cluster, headers carry each switch's LID and description.
void write_forwarding_tables(std::ostream& out, const ForwardingTables& tables,
                             const Cluster* cluster = nullptr);

}  // namespace slurmtopo
