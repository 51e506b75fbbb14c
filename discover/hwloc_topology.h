// An hwloc topology loaded the one way node discovery needs it: every I/O object kept, every
// PU kept even when the capture ran inside a cgroup, and XML checked before hwloc sees it.
#pragma once

#include <hwloc.h>

#include <functional>
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
// and anything else hwloc cannot parse. The trial forks: the caller must be the process's only
// thread.
HwlocTopology load_hwloc_xml(const std::string& path);

// The same from XML text already in memory; `source` names it in errors.
HwlocTopology load_hwloc_xml_text(const std::string& xml, const std::string& source);

// For loaders of many exports (a node set): each file loaded once, in one of at most
// `parallel` long-lived child processes (run_in_workers), so that a file libhwloc crashes on
// is that file's error and the others still load. `use` runs in the child on the loaded
// topology and returns what the parent keeps, as text (it crosses a pipe). `take(i, text,
// error)` runs in the parent as each file ends, with the text or with the error the file
// gets (the crash, hwloc's refusal with its reason from stderr, our checks, or an InputError
// from `use`), in the order they end. Forks: the caller must be the process's only thread.
using HwlocUse = std::function<std::string(hwloc_topology_t, const std::string& path)>;
using HwlocTake = std::function<void(size_t, std::string text, std::optional<InputError> error)>;
void load_hwloc_xml_files(const std::vector<std::string>& paths, unsigned parallel, const HwlocUse& use,
                          const HwlocTake& take);

// This machine, as slurmd's own hwloc would see it plus disallowed CPUs and all I/O.
HwlocTopology load_hwloc_live();

}  // namespace slurmtopo
