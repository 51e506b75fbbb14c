// simulate/: what a placement costs a distributed-training job. The narrow public header:
//   hardware_profile.h  GPUs, NVLink, PCIe, NICs, NCCL's constants, fitted calibration
//   routing.h           how the fabric carries HCA-to-HCA traffic (forwarding tables, modelled)
//   contention.h        flows of each collective algorithm, max-min fair on every link
//   collective.h        NCCL's latency/bandwidth model, per algorithm and protocol
//   prediction.h        predict(): per size the algorithm, time, algbw, busbw, bottlenecks
//   slurm_select.h      which nodes Slurm's select/cons_tres gives a job (docs/placement.md)
//   whatif_run.h        policies, edits and workload replays as shardable units (docs/whatif.md)
// The model, its assumptions and its calibration: docs/simulator.md.
#pragma once

#include "simulate/collective.h"
#include "simulate/contention.h"
#include "simulate/hardware_profile.h"
#include "simulate/prediction.h"
#include "simulate/routing.h"
