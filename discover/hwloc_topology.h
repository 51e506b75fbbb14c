// An hwloc topology loaded the one way node discovery needs it: every I/O object kept, every
// PU kept even when the capture ran inside a cgroup, and XML checked before hwloc sees it.
#pragma once

#include <hwloc.h>

#include <memory>
#include <string>

namespace slurmtopo {

struct HwlocTopologyDeleter {
  void operator()(hwloc_topology_t t) const { hwloc_topology_destroy(t); }
};
using HwlocTopology = std::unique_ptr<hwloc_topology, HwlocTopologyDeleter>;

// Loads an XML export (hwloc formats 1.x and 2.0). InputError, naming the file and line, for
// an unreadable or empty file, XML format 3.0 (hwloc 2.9 refuses it), a file cut short before
// </topology>, a file libhwloc crashes on (tried in a child process first, so the run survives),
// and anything else hwloc cannot parse.
HwlocTopology load_hwloc_xml(const std::string& path);

// The same from XML text already in memory; `source` names it in errors.
HwlocTopology load_hwloc_xml_text(const std::string& xml, const std::string& source);

// This machine, as slurmd's own hwloc would see it plus disallowed CPUs and all I/O.
HwlocTopology load_hwloc_live();

}  // namespace slurmtopo
