// The names a finding's subject or text mentions, so that a finding can be tied to the hosts and
// switches it is about: the report places it on the drawing and leaves its hosts out of the
// predicted curves, the measured comparison weighs it as a cause of a slow run on those hosts.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

// "su1-rail3[5] - dgx005 mlx5_3" → su1-rail3, dgx005, mlx5_3 (a switch's [port] is not part of
// its name); a hostlist "dgx[001-004]" → its hosts; words are split at spaces, commas, colons
// and quotes outside brackets.
std::vector<std::string> finding_names(const std::string& text);

}  // namespace slurmtopo
