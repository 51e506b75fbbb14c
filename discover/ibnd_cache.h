// libibnetdisc cache files (`ibnetdiscover --cache FILE`), loaded through ibnd_load_fabric.
#pragma once

#include <string>
#include <string_view>

#include "discover/fabric.h"

namespace slurmtopo {

Fabric load_ibnd_cache(const std::string& path);
bool looks_like_ibnd_cache(std::string_view head);  // magic number check

}  // namespace slurmtopo
