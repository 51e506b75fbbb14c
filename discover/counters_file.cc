#include "discover/counters_file.h"

#include "base/files.h"
#include "base/input_error.h"
#include "base/text.h"
#include "discover/ibdiagnet_pm.h"
#include "discover/ibqueryerrors_text.h"
#include "discover/perfquery_text.h"

namespace slurmtopo {

namespace {

constexpr const char* kForms = "ibqueryerrors, perfquery or ibdiagnet2.pm output";

}  // namespace

CounterReadings parse_counters_text(std::string_view text, const std::string& file) {
  if (trim(text).empty())
    throw InputError(file, 0, std::string(text.empty() ? "empty file" : "empty file (only blank lines)") +
                                  ": expected " + kForms);
  const std::string_view head = text.substr(0, 4096);
  if (head.find('\0') != std::string_view::npos) throw InputError(file, 0, std::string("binary data, not ") + kForms);
  if (looks_like_ibqueryerrors(head)) return parse_ibqueryerrors_text(text, file);
  if (looks_like_perfquery(head)) return parse_perfquery_text(text, file);
  if (looks_like_ibdiagnet_pm(head)) return parse_ibdiagnet_pm(text, file);
  throw InputError(file, 0,
                   "expected " + std::string(kForms) +
                       " (an \"Errors for\" or \"## Summary:\" line, a \"# Port counters:\" block, or a "
                       "\"Port=N Lid=0x.. GUID=0x..\" block), found " +
                       snippet(trim(head.substr(0, head.find('\n')))));
}

CounterReadings load_counters_file(const std::string& path) {
  return parse_counters_text(read_file(path, "the port counters"), path);
}

}  // namespace slurmtopo
