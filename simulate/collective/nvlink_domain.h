// Multi-node NVLink (MNNVL: GB200/GB300 NVL72) as NCCL runs it. NCCL fuses the GPUs of one
// NVLink domain (every node whose GPUs report the same ClusterUUID and CliqueId) into one of
// its nodes (src/graph/topo.cc, src/mnnvl.cc; `nNodes` then counts domains): rings, trees and
// NVLS run over NVLink inside a domain, and only the hops between domains take the network.
// The model does the same: on a profile whose domains hold several nodes, a placement becomes
// one node per domain, with as many GPUs as the job has there, whose channels leave through
// the NICs NCCL's search takes, GPU-first (graph/search.cc ncclTopoPrefNetsGpuFirst): the
// first GPUs' NICs in rank order, `nvlink_domain_nics` of them.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "discover/nvlink_domains.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/placement.h"

namespace slurmtopo {

// Which NVLink domain each host is in, for the model.
struct HostDomains {
  std::string source;                               // the --nvlink-domains file or directory
  std::unordered_map<std::string, std::string> of;  // host → ClusterUUID[.CliqueId]
  const std::string* find(const std::string& host) const {
    const auto it = of.find(host);
    return it == of.end() ? nullptr : &it->second;
  }
};

// A host is in the domain all its GPUs report; a host whose GPUs report none, or disagree,
// is left out (it runs as a domain of its own; emit/block_plan.h says why as a finding).
HostDomains host_domains(const NvlinkDomains& domains);

// `path` a domains file or a directory of HOST.fabric.csv (discover's load_nvlink_domains), read
// into host_domains. Throws InputError as load_nvlink_domains.
HostDomains load_host_domains(const std::string& path);

// Hosts by NVLink domain, the domains in the order the hosts first reach them: per group its
// indices into `hosts`, in order. A host `domains` does not place is a group of its own, not
// `known`.
struct DomainGroup {
  std::vector<int> hosts;
  bool known = true;
};
std::vector<DomainGroup> group_by_domain(const std::vector<std::string>& hosts, const HostDomains& domains);

// A placement as NCCL's nodes see it on an MNNVL profile.
struct DomainView {
  HardwareProfile profile;  // one node = one domain: its GPUs, and the NICs between domains
  Placement placement;      // one entry per domain, in the order the hosts first reach it
  std::vector<std::vector<std::string>> hosts;  // per domain, its hosts in rank order
  std::vector<std::string> warnings;            // hosts without a domain, uneven domains
};

// `per_host` is resolve_placement's for `hosts` on `profile` (a profile whose domains hold
// several nodes). `rails` forces the NICs per domain (a job next door must use the placement's
// count); 0 takes NCCL's: `nvlink_domain_nics`, at most the smallest domain's NICs. A host
// `domains` does not place runs as its own domain.
DomainView fuse_nvlink_domains(const std::vector<std::string>& hosts, const Placement& per_host,
                               const HardwareProfile& profile, const HostDomains& domains, int rails = 0);

}  // namespace slurmtopo
