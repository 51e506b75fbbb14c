// Every option of every command as one Markdown table (command, option, meaning, default), read
// from the parser's own tree: docs/options.md is this, and a test keeps it so. An option's
// meaning is its help up to the first ": " (what follows is this command's detail); one name
// means one thing in every command, which tests/cli/options_table_test.cc checks.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace slurmtopo::cli {

// The table for `app` and every command below it (hidden ones left out).
std::string options_markdown(CLI::App& app);

}  // namespace slurmtopo::cli
