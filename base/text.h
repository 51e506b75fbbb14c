// Counts in messages, the way a person writes them: "1 leaf", "2 leaves".
#pragma once

#include <string>
#include <string_view>

namespace slurmtopo {

std::string counted(size_t n, std::string_view one, std::string_view many);

}  // namespace slurmtopo
