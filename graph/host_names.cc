#include "graph/host_names.h"

#include <cctype>

#include "base/text.h"
#include "slurm/node_names.h"

namespace slurmtopo {

namespace {
// What an HCA says before anyone set its description: "MT4129 ConnectX7   Mellanox
// Technologies", "MT25408 ConnectX Mellanox Technologies", "MT23108 InfiniHost …".
bool factory_description(std::string_view d) {
  if (d.size() > 2 && d[0] == 'M' && d[1] == 'T' && std::isdigit(static_cast<unsigned char>(d[2])))
    return true;
  return d.find("Mellanox Technologies") != std::string_view::npos;
}

std::string_view after_first_word(std::string_view d) {
  size_t sp = d.find_first_of(" \t");
  return sp == std::string_view::npos ? std::string_view() : trim(d.substr(sp));
}

// Capture 1 of the host rule, and what follows it; nullopt-like empty host when no match.
bool match_host(std::string_view d, const std::regex* host_regex, std::string& host, std::string_view& rest) {
  if (!host_regex) {  // ^(\S+): the first word, as the regex engine's \S (isspace) cuts it
    size_t end = 0;
    while (end < d.size() && !std::isspace(static_cast<unsigned char>(d[end]))) ++end;
    if (end == 0) return false;
    host = std::string(d.substr(0, end));
    rest = d.substr(end);
    return true;
  }
  std::cmatch m;
  if (!std::regex_search(d.data(), d.data() + d.size(), m, *host_regex) || m.size() < 2 || !m[1].matched ||
      m.length(1) == 0)
    return false;
  host = m.str(1);
  rest = d.substr(static_cast<size_t>(m.position(1) + m.length(1)));
  return true;
}
}  // namespace

bool is_aggregation_node(std::string_view description) {
  return description.find("Aggregation Node") != std::string_view::npos;
}

const std::set<std::string>& distribution_default_host_names() {
  static const std::set<std::string> kNames{
      "localhost", "localhost.localdomain", "(none)", "ubuntu", "debian", "rocky", "centos",
      "rhel", "fedora", "almalinux", "sles", "opensuse", "archlinux", "unknown"};
  return kNames;
}

HcaIdentity identify_hca(std::string_view description, const std::regex& host_regex,
                         const std::string& mapped, const std::set<std::string>& placeholders) {
  return identify_hca(description, &host_regex, mapped, placeholders);
}

HcaIdentity identify_hca(std::string_view description, const std::regex* host_regex, const std::string& mapped,
                         const std::set<std::string>& placeholders) {
  HcaIdentity id;
  std::string_view d = trim(description);
  std::string_view rest;
  if (!mapped.empty()) {
    // The map's value is a node description: "gpu017 HCA-1" names host gpu017, HCA HCA-1.
    std::string_view m = trim(mapped);
    if (!match_host(m, host_regex, id.host, rest)) {
      size_t sp = m.find_first_of(" \t");
      id.host = std::string(m.substr(0, sp));
      rest = sp == std::string_view::npos ? std::string_view() : m.substr(sp);
    }
    // A map giving the host alone leaves the HCA's name to the fabric's description.
    if (trim(rest).empty() && !factory_description(d)) rest = after_first_word(d);
  } else if (d.empty()) {
    id.unresolved = "empty node description";
    return id;
  } else if (factory_description(d)) {
    id.unresolved = "factory-default node description";
    return id;
  } else if (!match_host(d, host_regex, id.host, rest)) {
    id.unresolved = "host regex does not match";
    return id;
  }
  id.rail = std::string(trim(rest));
  if (id.host == "localhost" || id.host == "localhost.localdomain") {
    id.unresolved = "node description says localhost";
    id.host.clear();
  } else if (placeholders.count(id.host)) {
    id.unresolved = "'" + id.host + "' is a distribution's default host name";
    id.host.clear();
  } else if (!valid_slurm_node_name(id.host)) {
    id.unresolved = "'" + id.host + "' is not a valid Slurm node name";
    id.host.clear();
  }
  return id;
}

}  // namespace slurmtopo
