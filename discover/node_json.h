// NodeInventory as JSON: what `slurmtopo discover node -o` writes and --nodes-dir reads back,
// so a node can be described once (on the node, or from its XML) and used anywhere later.
#pragma once

#include <string>
#include <string_view>

#include "discover/node_inventory.h"

namespace slurmtopo {

// Deterministic bytes: fixed key order, one-space indent, trailing newline. GUIDs as
// "0x<16 hex>", path classes as nvidia-smi spells them. Bytes that are not UTF-8 (a damaged
// export's model name) are written as U+FFFD, so a node always has a JSON form.
std::string node_to_json(const NodeInventory& node);

// Strict: format "slurmtopo-node" version 1, every key present with the right type, no
// unknown keys, matrices sized to the GPU/NIC lists, GPU indexes 0..n-1 in order.
// InputError(file, line, expected) otherwise. One allowance for hand-written nodes: an empty
// "gpu_nic"/"gpu_gpu" means "not known" and reads as a full matrix of UNKNOWN. gpu_gpu's
// diagonal is X (a GPU against itself), written so and read so whatever class it holds; X
// anywhere else is an error.
NodeInventory node_from_json(std::string_view text, const std::string& file);

NodeInventory load_node_json(const std::string& path);

}  // namespace slurmtopo
