#include "base/version.h"

#ifndef SLURMTOPO_VERSION
#error "SLURMTOPO_VERSION comes from CMakeLists.txt (project VERSION)"
#endif

namespace slurmtopo {

const std::string& slurmtopo_version() {
  static const std::string version = SLURMTOPO_VERSION;
  return version;
}

}  // namespace slurmtopo
