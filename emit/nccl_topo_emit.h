// `slurmtopo emit nccl-topo` as one call: per node class, NCCL's topology XML
// (emit/nccl_topo.h) written atomically into -o/--output as <first host>.xml. Hosts of one class
// whose own PCIe layout gives another file (a NIC on another switch) get their own file, so
// every host's file is its own; the result says which hostlist uses which file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/atomic_write.h"
#include "discover/node_set.h"

namespace slurmtopo {

struct EmitNcclTopoRequest {
  NodeSources sources;   // --nodes-dir / --node-class
  std::string nodes;     // --nodes HOSTLIST that must all be described
  std::string out_dir;   // -o/--output DIR
  std::string command;   // for the comment at the top of each file
};

struct NcclTopoFile {
  std::string hostlist;     // the hosts that use it
  std::string class_hosts;  // their class
  std::string path;
  std::string text;
  std::optional<WriteResult> written;
};

struct EmitNcclTopoResult {
  std::vector<NcclTopoFile> files;    // classes' order, then first host
  std::vector<std::string> warnings;  // the node set's
  int exit_code() const { return 0; }
};

// InputError for the node files (as emit gres), an -o/--output directory that cannot be made, or a class
// without GPUs only (nothing for NCCL).
EmitNcclTopoResult emit_nccl_topo(const EmitNcclTopoRequest& request);

}  // namespace slurmtopo
