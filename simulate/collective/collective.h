// simulate/collective/: what a placement costs an NCCL collective.
//   hardware_profile.h  GPUs, NVLink, PCIe, NICs, NCCL's constants (profiles/*.yaml, compiled in)
//   placement.h         hosts in rank order resolved to the HCA each rail's channels use
//   node_profile.h      the hardware profile and GPU → HCA layout made from node descriptions
//   nvlink_domain.h     multi-node NVLink (NVL72): a placement's NVLink domains as NCCL's nodes
//   contention.h        the flows of each algorithm on NVLink, PCIe, NICs and cables, shared
//   nccl_model.h        NCCL's latency/bandwidth model per algorithm and protocol
//   prediction.h        predict(): per size the algorithm, time, algbw, busbw, what limits it
//   model_error.h       the error the model claims per size and node count (docs/simulator.md)
//   placement_costs.h   many placements at one size, each distinct one predicted once
//   simulation.h        `slurmtopo simulate` as one call: cluster, hardware, routing, predictions
// The model, its assumptions and its calibration: docs/simulator.md.
#pragma once

#include "simulate/collective/builtin_profiles.h"
#include "simulate/collective/contention.h"
#include "simulate/collective/flow_problem.h"
#include "simulate/collective/network_stage.h"
#include "simulate/collective/node_stage.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/model_error.h"
#include "simulate/collective/nccl_model.h"
#include "simulate/collective/node_profile.h"
#include "simulate/collective/nvlink_domain.h"
#include "simulate/collective/placement.h"
#include "simulate/collective/placement_costs.h"
#include "simulate/collective/prediction.h"
#include "simulate/collective/simulation.h"
