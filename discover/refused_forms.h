// Saved outputs that look like a fabric but cannot give one, recognised so that `--fabric`
// says what the file is and which command gives a readable form, instead of "not a dump".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace slurmtopo {

struct RefusedForm {
  int line = 0;         // 1-based line that shows the form
  std::string message;  // "this is …; run …"
};

// Checks the first lines of a text (after terminal framing, -s progress and diagnostics):
//   node lists (ibnetdiscover -l/-H/-S/-R, ibhosts, ibswitches, ibrouters): nodes, no cables
//   ibnetdiscover --diff: the changes between two sweeps ("< "/"> " lines), not a fabric
//   OpenSM's subnet.lst / ibdiagnet's .lst: "{ CA Ports:1 ... } { SW ... } PHY=4x ..." lines
//   a Slurm topology file (topology.conf, `sharp_cmd topology`): "SwitchName=…" lines
std::optional<RefusedForm> refused_fabric_form(std::string_view head);

}  // namespace slurmtopo
