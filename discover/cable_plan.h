// A cabling plan: the cables a cluster should have, each end named as a technician at the rack
// names it. A switch end is the switch and its port ("leaf03", "17"); a host end is the host
// and its HCA ("dgx001", "mlx5_0"; "mlx5_0/2" for port 2 of a dual-port HCA); a CA no host
// claims is its node GUID and port ("0x…", "1").
#pragma once

#include <optional>
#include <string>
#include <string_view>
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

// A switch port as plans write it: "17", "P17", or one half of a twin-port cage, "P1/2" or
// "1/2" (cage c, lane s is port 2(c-1)+s, as Quantum-2 switches number them). The port number
// as text, or nullopt.
std::optional<std::string> plan_switch_port(std::string_view text);

// A host's HCA port as plans write it, in the form a fabric's end is named: "mlx5_0" (its
// first port), "mlx5_0/2" or "mlx5_0/P2" (port 2: "mlx5_0/2"), "U1/P1" (ibdiagnet's name for
// the HCA whose description says HCA-1: "HCA-1"), "port 2" (the host's one HCA, unnamed).
// nullopt for anything else, a bare number included: what a number means depends on the plan.
std::optional<std::string> plan_hca_port(std::string_view text);

// "mlx5_0/2" → ("mlx5_0", 2); "port 2" → ("", 2); "mlx5_0" → ("mlx5_0", 1).
std::pair<std::string, int> split_hca_port(const std::string& port);
// The inverse: ("mlx5_0", 1) → "mlx5_0", ("", 2) → "port 2".
std::string hca_port(const std::string& hca, int port);

}  // namespace slurmtopo
