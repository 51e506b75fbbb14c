// The white-space separated words of one line, as every word-based reader splits them
// (slurm.conf's Key=Value tokens, ibdm topology lines, plan name maps).
#pragma once

#include <string_view>
#include <vector>

namespace slurmtopo {

// Views into `line`; white space is C's isspace (blank, tab, CR, LF, VT, FF).
std::vector<std::string_view> words(std::string_view line);

// C's isspace without its locale: blank, tab, CR, LF, VT, FF.
inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// C's isblank: blank or tab, what the diagnostic tools put between the fields of a line.
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

// A blank, a tab or the CR of a CRLF line: between the fields of a line copied off Windows.
inline bool is_blank_or_cr(char c) { return is_blank(c) || c == '\r'; }

// `s` without the blanks, tabs and CRs at either end.
inline std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && is_blank_or_cr(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank_or_cr(s.back())) s.remove_suffix(1);
  return s;
}

// Splits the next word off `s`: the blanks, tabs and CRs before it are dropped, the word ends
// at the next one; "" at the end of `s`.
inline std::string_view next_word(std::string_view& s) {
  s = trim_blanks(s);
  size_t n = 0;
  while (n < s.size() && !is_blank_or_cr(s[n])) ++n;
  const std::string_view w = s.substr(0, n);
  s.remove_prefix(n);
  return w;
}

// `line` up to its first blank (find_first_of would call memchr once per character).
inline std::string_view first_word(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && !is_blank(line[n])) ++n;
  return line.substr(0, n);
}

}  // namespace slurmtopo
