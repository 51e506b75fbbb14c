// Faults injected into a generated fabric: what tests and samples need a fabric to get wrong.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

// One cable to degrade; the default is a link that trained at 1x.
struct CableDegrade {
  std::string a, b;                      // names as in Faults
  int width = 1;                         // 0 = keep
  LinkSpeed speed = LinkSpeed::Unknown;  // Unknown = keep
};

struct CrossedRails {
  std::string host;
  int rail_j = 0, rail_k = 1;
};

// A switch port as a technician names it: "leaf03[17]".
struct SwitchPort {
  std::string name;
  int port = 0;
};

// Faults for tests, applied in this order: miscable, swap, move, remove, degrade, unnamed (so the earlier
// ones can still name the hosts). A name is a switch name ("leaf001"), a host name ("gpu001",
// meaning any of its HCAs) or a full HCA description ("gpu001 mlx5_1"). A node left without
// cables is dropped, since no sweep could reach it. (The "= {}" lets designated initializers
// name only the faults they want without -Wextra warnings.)
struct Faults {
  std::vector<std::pair<std::string, std::string>> remove_cables = {};  // one cable between the two
  std::vector<CableDegrade> degrade_cables = {};
  std::vector<std::string> unnamed_hosts = {};  // HCAs get their factory description
  // (host, rail): that HCA's cable goes to the same rail's leaf of the next SU (su2-rail3 after
  // su1-rail3, wrapping) or, in a fat tree, to the next leaf. It takes the target's first free
  // port; on a full leaf it swaps with the HCA on the same port, as crossed cables do.
  std::vector<std::pair<std::string, int>> miscable_rail = {};
  // (host, rail j, rail k): the host's mlx5_j and mlx5_k cables change leaves (each takes the
  // other's switch port), as two crossed cables at the rack do.
  std::vector<CrossedRails> cross_rails = {};
  // The cables in the two ports exchange places (--swap-cables A[p],B[q]): each far end now
  // reaches the other port.
  std::vector<std::pair<SwitchPort, SwitchPort>> swap_cables = {};
  // The cable in the first port moves to the second, which must be free (--move-cable A[p],B[q]).
  std::vector<std::pair<SwitchPort, SwitchPort>> move_cables = {};
  // Units (--offset-unit su2): on each of the unit's leaves (su2-…) every host cable is one
  // port on, the last in the first host port, as a unit cabled one port off from the plan.
  std::vector<std::string> offset_units = {};
};

// Throws InputError on an unknown name or when the named nodes share no cable, naming the
// `slurmtopo generate` option that asked for the fault ("--remove-cable") or, for the faults no
// option sets, the Faults field ("miscable_rail").
void apply_faults(Fabric& fabric, const Faults& faults);

// Faults as the generator's options give them: "A,B" (--remove-cable) and
// "A,B[,<width>x|<SPEED>|<width>x<SPEED>]" (--degrade-cable, 1x when the third part is absent),
// A and B named as apply_faults names them. Throws InputError naming the option.
// "HOST[,J,K]" (--cross-rails, rails 0 and 1 when J and K are absent).
Faults parse_faults(const std::vector<std::string>& remove_cables, const std::vector<std::string>& degrade_cables,
                    const std::vector<std::string>& cross_rails = {});

// "A[p],B[q]" pairs of switch ports, as --swap-cables and --move-cable take them. Throws
// InputError naming `option`.
std::vector<std::pair<SwitchPort, SwitchPort>> parse_switch_port_pairs(const char* option,
                                                                       const std::vector<std::string>& args);

}  // namespace slurmtopo
