// What `collect` and `probe` share in the jobs they plan: the directory the steps write into, and
// the one way into the job's container.
#pragma once

#include <string>

namespace slurmtopo {

// `path` made absolute and without a trailing slash: a step's tasks start in its working
// directory on each node, not ours. InputError naming --output, saying it holds `what`, when
// `path` is empty.
std::string step_output_dir(const std::string& path, const std::string& what);

// `path` made absolute, for a command printed to run later from elsewhere.
std::string absolute_path(const std::string& path);

// InputError naming --container-image when both are given: Pyxis and a command prefix are two
// ways into the same container.
void check_one_container(const std::string& container_image, const std::string& container_exec);

}  // namespace slurmtopo
