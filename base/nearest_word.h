// The valid word a typo was meant to be: "inspekt" → "inspect", "--fabirc" → "--fabric".
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

// Edit distance (insert, delete, substitute, swap two neighbours), case-insensitive.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `word`, or "" when none is near enough to be a typo of it
// (distance at most a third of the word's length, at least 1; or one is a prefix of the other).
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace slurmtopo
