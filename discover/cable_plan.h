// A cabling plan: the cables a cluster should have, each end named as a technician at the rack
// names it. A switch end is the switch and its port ("leaf03", "17"); a host end is the host
// and its HCA ("dgx001", "mlx5_0"; "mlx5_0/2" for port 2 of a dual-port HCA); a CA no host
// claims is its node GUID and port ("0x…", "1").
#pragma once

#include <string>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

struct PlanEnd {
  std::string device;
  std::string port;
  bool switch_end = false;
};

struct PlannedCable {
  PlanEnd a, b;
  int width = 0;                         // 0: the plan does not say
  LinkSpeed speed = LinkSpeed::Unknown;  // Unknown: the plan does not say
  int line = 0;                          // where the plan has it; 0 when it has no lines
};

struct CablePlan {
  std::string source;  // the file, as named
  std::vector<PlannedCable> cables;
};

// "leaf03 port 17", "dgx001 mlx5_0": an end as a finding's advice says it.
std::string said(const PlanEnd& end);
// "leaf03[17]", "dgx001 mlx5_0": an end as a finding's subject names it (graph/cable_names.h).
std::string named(const PlanEnd& end);

}  // namespace slurmtopo
