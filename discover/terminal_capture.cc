// The session's lines are told from the dump's by what no dump line has: script(1)'s own
// words, a prompt followed by a diagnostic's name, a prompt alone at the end. Only the head and
// the tail are looked at, so a dump line that happens to look like a prompt is never touched.
#include "discover/terminal_capture.h"

#include <algorithm>
#include <array>

#include "base/words.h"

namespace slurmtopo {
namespace {

// Tools whose output is a --fabric form (or is refused by name), and `cat` of a saved one.
constexpr std::array<std::string_view, 9> kTools = {"ibnetdiscover", "iblinkinfo",  "iblinkinfo.pl",
                                                    "ibhosts",       "ibswitches",  "ibrouters",
                                                    "cat",           "zcat",        "ibnetdiscover.sh"};

// The length of the escape sequence at line[i] (an ESC): CSI is ESC [ … final byte 0x40-0x7e,
// OSC is ESC ] … BEL or ESC \, any other is 2 bytes. Cut-off sequences end with the line.
size_t escape_length(std::string_view line, size_t i) {
  size_t j = i + 1;
  if (j >= line.size()) return line.size() - i;
  if (line[j] == '[') {
    ++j;
    while (j < line.size() && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
    return std::min(j + 1, line.size()) - i;
  }
  if (line[j] == ']') {
    ++j;
    while (j < line.size() && line[j] != '\a' && line[j] != '\x1b') ++j;
    if (j < line.size() && line[j] == '\x1b') ++j;  // ESC of the ESC \ terminator
    return std::min(j + 1, line.size()) - i;
  }
  return 2;
}

// The line as the terminal showed it: escape sequences (colours, window titles, bracketed
// paste) and bells removed.
std::string visible(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '\x1b') {
      i += escape_length(line, i);
    } else {
      if (line[i] != '\a') out += line[i];
      ++i;
    }
  }
  return out;
}

// Escape sequences and carriage returns at the start of a line.
size_t escape_prefix(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == '\x1b' || line[i] == '\r'))
    i += line[i] == '\x1b' ? escape_length(line, i) : 1;
  return i;
}

// `sudo`, `time` and VAR=value before the command, then the command's base name.
bool runs_a_tool(std::string_view command) {
  for (;;) {
    std::string_view word = next_word(command);
    if (word.empty()) return false;
    if (word == "sudo" || word == "time" || word.find('=') != std::string_view::npos) continue;
    if (const size_t slash = word.rfind('/'); slash != std::string_view::npos) word.remove_prefix(slash + 1);
    for (std::string_view tool : kTools)
      if (word == tool) return true;
    return false;
  }
}

// "root@head:~# ibnetdiscover -p", "[admin@mgmt ~]$ sudo iblinkinfo", "$ ibnetdiscover".
bool is_command_line(std::string_view line) {
  for (size_t p = 0; p + 1 < line.size(); ++p) {
    const char c = line[p];
    if ((c == '$' || c == '#' || c == '%' || c == '>') && line[p + 1] == ' ' && runs_a_tool(line.substr(p + 2)))
      return true;
  }
  return false;
}

// A prompt with nothing after it, or `exit`/`logout`: "root@head:~#", "[root@head ~]# exit".
bool is_closing_prompt(std::string_view line) {
  if (line == "exit" || line == "logout") return true;
  for (std::string_view word : {std::string_view(" exit"), std::string_view(" logout")})
    if (line.ends_with(word)) line = trim_blanks(line.substr(0, line.size() - word.size()));
  if (line.size() < 2) return false;
  const char end = line.back();
  if (end != '$' && end != '#' && end != '%' && end != '>') return false;
  // Prompts name the user or host ("user@host") or bracket them; no dump line does either and
  // ends so.
  return line.find('@') != std::string_view::npos || line.front() == '[' || line.starts_with("bash-") ||
         line.starts_with("sh-");
}

bool is_head_line(std::string_view shown) {
  return shown.starts_with("Script started on ") || is_command_line(shown);
}

bool is_tail_line(std::string_view shown) {
  return shown.starts_with("Script done on ") || is_closing_prompt(shown) || is_command_line(shown);
}

}  // namespace

std::optional<std::string> strip_terminal_capture(std::string_view text, bool complete) {
  // Only the head and the tail are walked, never the whole dump: a 40 MB dump without framing
  // costs two short scans and no copy.
  size_t head_end = 0;  // text [0, head_end) is the session's
  bool stripped = false;
  for (size_t start = 0; start < text.size();) {
    const size_t nl = text.find('\n', start);
    const size_t stop = nl == std::string_view::npos ? text.size() : nl;
    const std::string shown = std::string(trim_blanks(visible(text.substr(start, stop - start))));
    const size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!shown.empty()) {
      if (!is_head_line(shown)) break;
      head_end = next;
      stripped = true;
    }
    start = next;
  }
  size_t tail_start = text.size();  // text [tail_start, end) is the session's
  if (complete) {
    size_t stop = text.size();
    if (stop > head_end && text[stop - 1] == '\n') --stop;  // the file's last line end
    while (stop > head_end) {
      const size_t nl = text.rfind('\n', stop - 1);
      const size_t start = nl == std::string_view::npos || nl < head_end ? head_end : nl + 1;
      const std::string shown = std::string(trim_blanks(visible(text.substr(start, stop - start))));
      if (!shown.empty()) {
        if (!is_tail_line(shown)) break;
        tail_start = start;
        stripped = true;
      }
      if (start == head_end) break;
      stop = start - 1;
    }
  }
  // Bash's bracketed paste leaves "ESC[?2004l\r" before the command's first line of output.
  size_t body = head_end;
  while (body < tail_start) {
    const size_t nl = text.find('\n', body);
    const size_t stop = nl == std::string_view::npos ? text.size() : nl;
    if (!trim_blanks(visible(text.substr(body, stop - body))).empty() || nl == std::string_view::npos) break;
    body = nl + 1;
  }
  size_t escapes = 0;
  if (body < tail_start && text[body] == '\x1b')
    escapes = escape_prefix(text.substr(body, std::min(text.find('\n', body), tail_start) - body));
  if (!stripped && !escapes) return std::nullopt;

  // Each line of the session's becomes an empty line, so line numbers still match the file.
  std::string out(static_cast<size_t>(std::count(text.begin(), text.begin() + head_end, '\n')), '\n');
  out.reserve(text.size());
  out.append(text.substr(head_end, body - head_end));
  out.append(text.substr(body + escapes, tail_start - std::min(tail_start, body + escapes)));
  out.append(static_cast<size_t>(std::count(text.begin() + tail_start, text.end(), '\n')), '\n');
  return out;
}

}  // namespace slurmtopo
