#include "discover/job_paths.h"

#include <filesystem>

#include "base/input_error.h"

namespace slurmtopo {

std::string absolute_path(const std::string& path) {
  return std::filesystem::absolute(path).lexically_normal().string();
}

std::string step_output_dir(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError("--output", 0, "expected the directory " + what);
  std::string out = absolute_path(path);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

void check_one_container(const std::string& container_image, const std::string& container_exec) {
  if (!container_image.empty() && !container_exec.empty())
    throw InputError("--container-image", 0, "expected one way into the job's container: --container-image (Pyxis) "
                                             "or --container-exec, not both");
}

}  // namespace slurmtopo
