#include "graph/host_names.h"

#include <cctype>

#include "slurm/node_names.h"

namespace slurmtopo {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// What an HCA says before anyone set its description: "MT4129 ConnectX7   Mellanox
// Technologies", "MT25408 ConnectX Mellanox Technologies", "MT23108 InfiniHost …".
bool factory_description(std::string_view d) {
  if (d.size() > 2 && d[0] == 'M' && d[1] == 'T' && std::isdigit(static_cast<unsigned char>(d[2])))
    return true;
  return d.find("Mellanox Technologies") != std::string_view::npos;
}
}  // namespace

bool is_aggregation_node(std::string_view description) {
  return description.find("Aggregation Node") != std::string_view::npos;
}

HcaIdentity identify_hca(std::string_view description, const std::regex& host_regex,
                         const std::string& mapped) {
  HcaIdentity id;
  std::string_view d = trim(description);
  std::string_view rest;
  if (!mapped.empty()) {
    id.host = mapped;
  } else if (d.empty()) {
    id.unresolved = "empty node description";
    return id;
  } else if (factory_description(d)) {
    id.unresolved = "factory-default node description";
    return id;
  } else {
    std::cmatch m;
    if (!std::regex_search(d.data(), d.data() + d.size(), m, host_regex) || m.size() < 2 ||
        !m[1].matched || m.length(1) == 0) {
      id.unresolved = "host regex does not match";
      return id;
    }
    id.host = m.str(1);
    rest = d.substr(static_cast<size_t>(m.position(1) + m.length(1)));
  }
  if (!mapped.empty()) {
    // The description still names the HCA after its host word, even when the host is mapped.
    size_t sp = d.find_first_of(" \t");
    if (sp != std::string_view::npos && !factory_description(d)) rest = d.substr(sp);
  }
  id.rail = std::string(trim(rest));
  if (id.host == "localhost" || id.host == "localhost.localdomain") {
    id.unresolved = "node description says localhost";
    id.host.clear();
  } else if (!valid_slurm_node_name(id.host)) {
    id.unresolved = "'" + id.host + "' is not a valid Slurm node name";
    id.host.clear();
  }
  return id;
}

}  // namespace slurmtopo
