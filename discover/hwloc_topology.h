// An hwloc topology loaded the one way node discovery needs it: every I/O object kept, every
// PU kept even when the capture ran inside a cgroup, and XML checked before hwloc sees it.
#pragma once

#include <hwloc.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/input_error.h"

namespace slurmtopo {

struct HwlocTopologyDeleter {
  void operator()(hwloc_topology_t t) const { hwloc_topology_destroy(t); }
};
using HwlocTopology = std::unique_ptr<hwloc_topology, HwlocTopologyDeleter>;

// Loads an XML export (hwloc formats 1.x and 2.0). InputError, naming the file and line, for
// an unreadable or empty file, XML format 3.0 (hwloc 2.9 refuses it), a file cut short before
// </topology>, a file libhwloc crashes on (tried in a child process first, so the run survives),
// and anything else hwloc cannot parse.
// InChild: the parse is tried in a forked child first (the caller must be the process's only
// thread then). Done: the caller already tried the file (try_hwloc_xml_files).
enum class HwlocTrial { InChild, Done };
HwlocTopology load_hwloc_xml(const std::string& path, HwlocTrial trial = HwlocTrial::InChild);

// The same from XML text already in memory; `source` names it in errors.
HwlocTopology load_hwloc_xml_text(const std::string& xml, const std::string& source,
                                  HwlocTrial trial = HwlocTrial::InChild);

// For loaders that read many exports on threads: every file tried in its own child, `parallel`
// at a time, before any thread starts. Per file, the error a crash or hwloc's refusal gives
// (then load it with HwlocTrial::Done only when there is none).
std::vector<std::optional<InputError>> try_hwloc_xml_files(const std::vector<std::string>& paths, unsigned parallel);

// This machine, as slurmd's own hwloc would see it plus disallowed CPUs and all I/O.
HwlocTopology load_hwloc_live();

}  // namespace slurmtopo
