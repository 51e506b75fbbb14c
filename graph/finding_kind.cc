#include "graph/finding_kind.h"

namespace slurmtopo {

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::Info: return "info";
    case Severity::Warn: return "warn";
    case Severity::Fail: return "fail";
  }
  return "?";
}

namespace {

constexpr FindingCheck kChecks[] = {
    {"inputs.match", "every input describes this cluster: node exports, Slurm's nodes and the topology in service "
                     "share hosts with the fabric"},
    {"fabric.sweep", "the sweep reached every node, one fabric per subnet", true},
    {"fabric.cabling", "every cable runs at the best rate both its ends support, none loops back or joins two "
                       "leaves of a tree", true},
    {"fabric.errors", "no cable end counts errors above its threshold (port counters, where given)"},
    {"fabric.plan", "every cable is where the cabling plan has it, at its rate, and no other (where a plan is given)"},
    {"fabric.uplinks", "every leaf has as many uplinks as its peers", true},
    {"fabric.rails", "every host has every rail, each on its rail's leaf", true},
    {"fabric.hcas", "every HCA names its host", true},
    {"slurm.nodes", "every Slurm node is in the fabric, under a leaf Slurm can place it on"},
    {"nodes.layout", "every GPU has a near NIC, hosts of a class agree, GPU k of every host is on rail k's leaf", true},
    {"nodes.health", "every GPU and NIC at full PCIe width and speed, every rail port ACTIVE at its class's rate, "
                     "GPUDirect RDMA possible, no GPU memory fault, hosts of a class alike (where probed)"},
    {"nodes.container", "the job's container reaches the RDMA devices through a verbs provider, its NCCL_IB_HCA "
                        "names the rails, its CUDA runs on the driver (where probed in the container)"},
    {"nodes.nvlink", "every node is in an NVLink domain its GPUs agree on, no domain smaller than its peers (where "
                     "--nvlink-domains is given)"},
    {"performance.profile", "the hardware profile the predictions use matches the fabric's NICs"},
    {"performance.measured", "every measured nccl-tests run is within the model's error of its prediction, ran over "
                             "RDMA with GPUDirect on the GPUs' nearest HCAs, and counted no wrong result (where "
                             "measured)"},
};

}  // namespace

std::span<const FindingCheck> finding_checks() { return kChecks; }

const FindingCheck* find_finding_check(std::string_view id) {
  for (const FindingCheck& c : kChecks)
    if (id == c.id) return &c;
  return nullptr;
}

}  // namespace slurmtopo
