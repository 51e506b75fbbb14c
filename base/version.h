// slurmtopo's version: CMake's project(VERSION), set on base/version.cc alone so a new version
// rebuilds one file. `slurmtopo --version` and the header of every file slurmtopo writes carry it.
#pragma once

#include <string>

namespace slurmtopo {

// "0.1.0"
const std::string& slurmtopo_version();

}  // namespace slurmtopo
