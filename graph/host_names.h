// Who owns an HCA: the host name and rail its description (or a map) gives, or why neither
// can be trusted.
#pragma once

#include <regex>
#include <string>
#include <string_view>

namespace slurmtopo {

struct HcaIdentity {
  std::string host;        // empty when unresolved
  std::string rail;        // the HCA's own name after the host ("mlx5_0", "HCA-1")
  std::string unresolved;  // reason, when host is empty
};

// True for SHARP aggregation nodes: CAs inside switches, never hosts.
bool is_aggregation_node(std::string_view description);

// `host_regex` must have one capture group: the host name. `mapped` (from a name map) wins.
HcaIdentity identify_hca(std::string_view description, const std::regex& host_regex,
                         const std::string& mapped);

}  // namespace slurmtopo
