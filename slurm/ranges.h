// Index ranges as Slurm spells them in Cores=, CPUs= and the like: "0-13,28-41".
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

// Sorted values → "0-2,5,7-8" (consecutive runs as lo-hi); empty → "".
std::string format_ranges(const std::vector<int>& values);

// "0-13,28-41" → the ids, sorted and unique, appended to `out`; false on anything else
// (negative, reversed, not a number, a run over 2^20 ids).
bool parse_ranges(const std::string& text, std::vector<int>& out);

}  // namespace slurmtopo
