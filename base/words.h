// The white-space separated words of one line, as every word-based reader splits them
// (slurm.conf's Key=Value tokens, ibdm topology lines, plan name maps).
#pragma once

#include <string_view>
#include <vector>

namespace slurmtopo {

// Views into `line`; white space is C's isspace (blank, tab, CR, LF, VT, FF).
std::vector<std::string_view> words(std::string_view line);

}  // namespace slurmtopo
