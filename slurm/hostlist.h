// Slurm hostlist expressions: `gpu[001-032,040]`, `n[1-2]-ib[0-1]`, comma lists.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

// Expands as `scontrol show hostnames` does. Throws std::invalid_argument describing the
// problem (callers add file:line).
std::vector<std::string> expand_hostlist(std::string_view expr);

// expand_hostlist for a value the user gave: the problem as InputError(where, line, ...),
// `where` being the file or the option it came from, after `context` ("expected
// `NodeName=<hostlist>`") when one is given.
std::vector<std::string> expand_hostlist_at(std::string_view expr, const std::string& where, int line = 0,
                                            const std::string& context = "");

// Compresses as `scontrol show hostlist` does (sorted, duplicates removed).
std::string compress_hostlist(std::vector<std::string> names);

// The names as a hostlist that keeps their order (rank order matters to a ring): sorted
// stretches compress as compress_hostlist does, a name out of order starts a new stretch.
std::string compress_hostlist_in_order(const std::vector<std::string>& names);

// Slurm's node table order (22.05+): natural sort, digits compared as numbers.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace slurmtopo
