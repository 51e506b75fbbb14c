#include "discover/counters_file.h"

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"
#include "base/text.h"
#include "discover/ibdiagnet_pm.h"
#include "discover/ibqueryerrors_text.h"
#include "discover/perfquery_text.h"

namespace slurmtopo {

namespace {

constexpr const char* kForms = "ibqueryerrors, perfquery or ibdiagnet2.pm output";
// The line each form starts with, for the message when none does.
constexpr const char* kFormLines =
    "an \"Errors for\" or \"## Summary:\" line, a \"# Port counters:\" block, or a "
    "\"Port=N Lid=0x.. GUID=0x..\" block";

struct FirstLine {
  int number = 0;          // 1-based; 0: there is none
  size_t offset = 0;       // where it starts in the text
  std::string_view text;   // trimmed
};

// The first line that is neither blank nor an "ibwarn:" line.
FirstLine first_line(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  size_t offset = 0;
  while (lines.next(line)) {
    const std::string_view t = trim(line);
    if (!t.empty() && !t.starts_with("ibwarn:")) return {lines.number(), offset, t};
    offset += line.size() + 1;
  }
  return {};
}

}  // namespace

CounterReadings parse_counters_text(std::string_view text, const std::string& file) {
  if (trim(text).empty())
    throw InputError(file, 0, std::string(text.empty() ? "empty file" : "empty file (only blank lines)") +
                                  ": expected " + kForms);
  if (text.substr(0, 4096).find('\0') != std::string_view::npos)
    throw InputError(file, 0, std::string("binary data, not ") + kForms);
  // The tools' own warnings (saved with 2>&1) say nothing about the form, and a run whose first
  // queries failed can start with many of them: the form is told from the first other line on.
  const FirstLine first = first_line(text);
  const std::string_view head = text.substr(first.offset, 4096);
  if (looks_like_ibqueryerrors(head)) return parse_ibqueryerrors_text(text, file);
  if (looks_like_perfquery(head)) return parse_perfquery_text(text, file);
  if (looks_like_ibdiagnet_pm(head)) return parse_ibdiagnet_pm(text, file);
  const std::string expected = "expected " + std::string(kForms) + " (" + kFormLines + ")";
  if (first.number == 0)
    throw InputError(file, 0, expected + ", found only \"ibwarn:\" lines (the tool's warnings, not its output)");
  throw InputError(file, first.number, expected + ", found " + snippet(first.text));
}

CounterReadings load_counters_file(const std::string& path) {
  return parse_counters_text(read_file(path, "the port counters"), path);
}

}  // namespace slurmtopo
