// site.yaml: what the admin knows and the fabric cannot say.
#pragma once

#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/port_counters.h"

namespace slurmtopo {

struct SiteConfig {
  std::string source;                       // path it was read from, "" for defaults
  std::string host_regex = R"(^(\S+))";     // capture group 1 of the node description
  std::vector<std::string> exclude_hosts;   // hostlist expressions (storage, login, …)
  std::vector<std::string> exclude_regex;   // host-name regexes
  int expected_width = 0;                   // lanes; 0 = learn the fabric's usual width
  LinkSpeed expected_speed = LinkSpeed::Unknown;
  int expected_uplinks_per_leaf = 0;        // 0 = learn from the leaves' usual count
  std::string group_name_regex;             // capture 1 of a member switch name names a group
  // Host names that say nothing (an installer's default): added to localhost, ubuntu, debian,
  // rocky, "(none)", … (graph/host_names.h).
  std::vector<std::string> default_host_names;
  // `counter_thresholds: {SymbolErrorCounter: 50, PortXmitWait: 100000, VL15Dropped: off}`:
  // replaces the defaults (discover/port_counters.h) of the counters it names.
  CounterThresholds counter_thresholds = default_counter_thresholds();
};

// Unknown keys and wrongly typed values are InputErrors with the YAML line.
SiteConfig load_site_config(const std::string& path);

}  // namespace slurmtopo
