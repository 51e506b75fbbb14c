// `--plan FILE`: a cabling plan in any form slurmtopo reads, recognised by content. A cable
// list (discover/cable_list.h) and an ibdm topology file (discover/ibdm_topology.h) are read
// here; any other file is a fabric accepted earlier (snapshot, ibnetdiscover text, cache),
// which needs the model to name its ends (graph/cluster_cables.h).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "discover/cable_plan.h"

namespace slurmtopo {

// The plan when the file is a cable list or an ibdm topology file; nullopt when it is neither
// (the caller reads it as a fabric, whose reader names what is wrong with it). InputError
// (file:line) for a cable list or topology file that cannot be read.
std::optional<CablePlan> read_plan_file(const std::string& path);

// A plan that must be a cable list or an ibdm topology file (generate from-plan): InputError
// naming the file when it is a fabric or neither.
CablePlan read_cable_plan(const std::string& path);

// Plan names to fabric names (`--plan-name-map`): one `PLAN-NAME FABRIC-NAME` pair per line,
// `#` comments, for a plan that names switches or hosts otherwise than their descriptions do.
struct PlanNameMap {
  std::string source;
  std::map<std::string, std::string> fabric_name;
};

// InputError (file:line) for a line that is not two names, a plan name given twice, or two plan
// names for one fabric name.
PlanNameMap load_plan_name_map(const std::string& path);

// Every device of the plan the map names, renamed to its fabric name.
void rename_devices(CablePlan& plan, const PlanNameMap& map);

}  // namespace slurmtopo
