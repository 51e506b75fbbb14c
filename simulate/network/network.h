// simulate/network/: how the fabric carries traffic between HCAs, and what it gives each flow.
//   routing.h            the switch-by-switch path: forwarding tables, OpenSM's min-hop
//                        (D-mod-K) and ftree modelled, or an adaptive idealisation
//   forwarding_tables.h  LFTs read from dump_fts/ibroute text, or computed as OpenSM would
//   fabric_model.h       one cluster's routing and cable-direction resources, shared read-only
//   fabric_resources.h   a max-min resource per cable direction, paths turned into flows
//   flow_sharing.h       max-min fair sharing of resources among flows
#pragma once

#include "simulate/network/fabric_model.h"
#include "simulate/network/fabric_resources.h"
#include "simulate/network/flow_sharing.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"
