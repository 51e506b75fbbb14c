// What an option's value may be, checked alike in every command, with one wording for every
// error: "--count: expected a whole number of at least 1, got '0'", "--plugin: expected tree or
// block, got 'blok'; did you mean block?". Never CLI11's Range (a double's limits printed to
// 300 digits) or IsMember ("blok not in {tree,block}").
#pragma once

#include <CLI/CLI.hpp>
#include <limits>
#include <string>
#include <vector>

namespace slurmtopo::cli {

// Digits only, from `min` to `max`.
CLI::Validator whole_number(long long min, long long max = std::numeric_limits<int>::max());

// A decimal number from `min` to `max`.
CLI::Validator number_from(double min, double max);

// One of `words`; with `any_case`, in any case, and turned into the word as listed. A typo gets
// the nearest word. Give it with ->transform() when `any_case` (it rewrites the value).
CLI::Validator one_of(const std::vector<std::string>& words, bool any_case = false);

// The words as a sentence lists them: "tree or block", "conf, yaml or json".
std::string or_list(const std::vector<std::string>& words);

}  // namespace slurmtopo::cli
