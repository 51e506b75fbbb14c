// Who owns an HCA: the host name and rail its description (or a map) gives, or why neither
// can be trusted.
#pragma once

#include <regex>
#include <set>
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

// Host names an installer leaves behind (localhost, ubuntu, debian, rocky, "(none)", …): a
// node description naming one of them says nothing about which host it is.
const std::set<std::string>& distribution_default_host_names();

// `host_regex` must have one capture group: the host name. A name map's value (`mapped`) is a
// node description, as ibnetdiscover and OpenSM treat it: the same rule picks the host out of
// it (falling back to its first word when the regex is written for the fabric's own
// descriptions), and it wins over the fabric's description. Names in `placeholders` (and
// localhost) are never host names.
HcaIdentity identify_hca(std::string_view description, const std::regex& host_regex,
                         const std::string& mapped,
                         const std::set<std::string>& placeholders = distribution_default_host_names());
// The same with the rule as a pointer: nullptr is the default rule, `^(\S+)` (the first word),
// read without the regex engine, which cost a sixth of the model's time on large fabrics.
HcaIdentity identify_hca(std::string_view description, const std::regex* host_regex, const std::string& mapped,
                         const std::set<std::string>& placeholders);

}  // namespace slurmtopo
