// Internal to simulate/: the routing engines behind make_routing, over one shared FabricIndex.
#pragma once

#include <memory>

#include "simulate/network/fabric_index.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

std::unique_ptr<Routing> make_minhop_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_adaptive_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_ftree_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind);

ForwardingTables minhop_tables(const FabricIndex& index);
ForwardingTables ftree_tables(const FabricIndex& index);

}  // namespace slurmtopo
