// The evidence of why a measured run fell short, in the order it is weighed
// (measured_compare.h lists it): from NCCL's log of the run (sockets, GPUDirect, HCAs), the node
// findings on its hosts, the cables on its routes, and the fabric's rail findings.
#pragma once

#include <string>
#include <vector>

#include "discover/node_set.h"
#include "graph/finding_kind.h"
#include "graph/node_join.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/nvlink_domain.h"
#include "simulate/collective/placement.h"
#include "simulate/measured/measured_run.h"
#include "simulate/network/fabric_model.h"

namespace slurmtopo {

// What the performance.measured check finds (graph/finding_kind.h).
inline constexpr FindingKind kMeasuredFindingKinds[] = {
    {"below-prediction", "performance.measured", Severity::Fail,
     "a measured nccl-tests run sits below the prediction for its hosts by more than the model's stated error at "
     "some size; the detail names the likely cause",
     "runs"},
    {"wrong-results", "performance.measured", Severity::Fail,
     "nccl-tests counted wrong elements (#wrong above 0): the collective returned bad data", "runs"},
    {"socket-fallback", "performance.measured", Severity::Fail,
     "NCCL ran a multi-node communicator over TCP sockets on a host instead of RDMA", "hosts"},
    {"gdr-off", "performance.measured", Severity::Warn,
     "NCCL moved a GPU's network traffic without GPUDirect RDMA (through host memory)", "hosts"},
    {"hca-not-nearest", "performance.measured", Severity::Warn,
     "NCCL sent a GPU's traffic through an HCA other than its nearest, or another rail than its peers'", "ranks"},
    {"above-prediction", "performance.measured", Severity::Info,
     "a measured run beats the prediction by more than the model's stated error: the model is wrong there "
     "(docs/simulator.md)",
     "runs"},
    {"probe-step-unmeasured", "performance.measured", Severity::Warn,
     "a placement of the probe (DIR/probe.json) has no complete run in its output: the step never ran, failed, was "
     "cut short or ran on other hosts, so that part of the fabric is not measured",
     "steps"},
};
enum class MeasuredKind { Below, Wrong, Sockets, NoGdr, NotNearest, Above, StepUnmeasured };
inline const FindingKind& measured_kind(MeasuredKind k) { return kMeasuredFindingKinds[static_cast<int>(k)]; }

// One piece of evidence, in the order above (`order` 1–6).
struct Cause {
  int order = 0;
  MeasuredKind kind = MeasuredKind::Below;  // its own finding, where it has one (1–3)
  std::string subject;          // hosts, a cable
  std::string detail;           // what the evidence says, with file:line
  std::vector<std::string> hosts;  // the run's hosts it is on (none for a cable)
};

struct MeasuredContext {
  const FabricModel* fabric = nullptr;
  const HardwareProfile* profile = nullptr;     // nullptr: nothing predicted, the evidence still read
  const GpuNics* gpu_nics = nullptr;            // node data: the GPU's nearest HCA
  const NodeSet* nodes = nullptr;               // node data: GPU bus ids
  const std::vector<NodeAnomaly>* node_findings = nullptr;
  RoutingKind routing = RoutingKind::MinHop;
  const HostDomains* nvlink_domains = nullptr;  // NVLink domains: NCCL's nodes on an NVL72 profile
};

// Every piece of evidence, most likely first (by `order`, then as found). `predicted_with`: the
// profile the run was predicted with, whose placement gives the routes whose cables are looked
// at; nullptr when it was not predicted (no cable cause then).
std::vector<Cause> find_causes(const MeasuredRun& run, const MeasuredContext& context,
                               const HardwareProfile* predicted_with);

}  // namespace slurmtopo
