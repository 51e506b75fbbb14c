// Compiling a regular expression an admin typed (site.yaml's host_regex and friends).
#pragma once

#include <regex>
#include <string>

namespace slurmtopo {

// std::regex(text) (ECMAScript), after refusing what libstdc++ 12 cannot compile safely: it
// reads the number of a back reference (`\12`) or a repeat count (`{3,7}`) with no overflow
// check, so a long digit run is undefined behaviour there, not an error. More than 5 digits
// (group 99999, 99999 repeats: beyond any real pattern and libstdc++'s own 100,000-state
// limit) throws std::regex_error whose what() names the number and where it starts. So does a
// pattern over 1,024 characters: libstdc++ compiles by recursion, one level per term, and
// tens of thousands overflow the stack.
std::regex compile_regex(const std::string& text);

}  // namespace slurmtopo
