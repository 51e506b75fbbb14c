// Text in messages: counts the way a person writes them ("1 leaf", "2 leaves"), and the text
// an error quotes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

std::string counted(size_t n, std::string_view one, std::string_view many);

// What an error message shows of the text a reader could not read: its first 24 bytes quoted,
// bytes outside printable ASCII as \xNN, "..." when cut; "the end of the line" when empty.
std::string snippet(std::string_view rest);

// `x` with `decimals` digits after the point, as a table shows it; "-" when x is not finite
// (a figure nothing bounds or nothing measured).
std::string fixed_decimals(double x, int decimals);

// `parts` joined with `sep` between them: "a, b, c".
std::string join_list(const std::vector<std::string>& parts, std::string_view sep = ", ");

// `s` without the white space (isspace) at either end.
std::string_view trim(std::string_view s);

}  // namespace slurmtopo
