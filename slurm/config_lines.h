// The line rules every Slurm configuration file shares (slurm.conf, topology.conf,
// gres.conf), as Slurm's s_p_parse_file applies them: `#` starts a comment unless a
// backslash escapes it, an odd run of backslashes at the end joins the next line (the
// backslash dropped, no separator added), a trailing CR is dropped. One reader, so that
// every file slurmtopo checks is cut into lines the way Slurm cuts it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

struct SlurmConfLine {
  int number = 0;    // the first physical line (1-based)
  std::string text;  // comments and continuations resolved; may be blank
};

std::vector<SlurmConfLine> read_slurm_conf_lines(std::string_view text);

// White-space separated words (Key=Value tokens) of a logical line.
std::vector<std::string_view> slurm_conf_words(std::string_view line);

// Slurm's keys are case-insensitive.
std::string ascii_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);

}  // namespace slurmtopo
