// XML is checked here before hwloc parses it because hwloc's own failures are one errno
// ("Invalid argument") for every cause, and hwloc 2.9's built-in (non-libxml2) parser rejects
// valid XML comments. The three failures an admin actually meets — a format 3.0 export, a
// copy cut short, a file that is not an export — get their own message with a line.
#include "discover/hwloc_topology.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <vector>

#include "base/crash_guard.h"
#include "base/files.h"
#include "base/input_error.h"

namespace slurmtopo {
namespace {

int line_at(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// Blanks `<!-- ... -->` (keeping newlines, so our errors keep their line numbers). An
// unterminated comment is a truncated file. Exports from lstopo have no comments: then the
// text is used as it is, since every 200 KB copy costs page faults, and a cluster has
// thousands of exports to read.
void blank_comments(std::string& text, std::string_view original, const std::string& source) {
  for (size_t pos = text.find("<!--"); pos != std::string::npos; pos = text.find("<!--", pos)) {
    const size_t end = text.find("-->", pos + 4);
    if (end == std::string::npos)
      throw InputError(source, line_at(original, pos),
                       "truncated XML: a comment opened here is never closed (file cut short?)");
    for (size_t i = pos; i < end + 3; ++i)
      if (text[i] != '\n') text[i] = ' ';
    pos = end + 3;
  }
}

// The value of attribute `name` inside one start tag, or "" when absent.
std::string attribute(std::string_view tag, std::string_view name) {
  size_t pos = 0;
  while ((pos = tag.find(name, pos)) != std::string_view::npos) {
    const bool starts_word = pos > 0 && (tag[pos - 1] == ' ' || tag[pos - 1] == '\t' ||
                                         tag[pos - 1] == '\n' || tag[pos - 1] == '\r');
    size_t eq = pos + name.size();
    while (eq < tag.size() && (tag[eq] == ' ' || tag[eq] == '\t')) ++eq;
    if (starts_word && eq < tag.size() && tag[eq] == '=') {
      size_t q = eq + 1;
      while (q < tag.size() && (tag[q] == ' ' || tag[q] == '\t')) ++q;
      if (q < tag.size() && (tag[q] == '"' || tag[q] == '\'')) {
        const size_t close = tag.find(tag[q], q + 1);
        if (close != std::string_view::npos) return std::string(tag.substr(q + 1, close - q - 1));
      }
    }
    pos += name.size();
  }
  return "";
}

void check_export(std::string_view xml, const std::string& source) {
  const size_t first = xml.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    throw InputError(source, 0, "empty file: expected an hwloc XML export (`lstopo --of xml`)");

  const size_t root = xml.find("<topology");
  if (root == std::string_view::npos)
    throw InputError(source, 0,
                     "not an hwloc XML export: no <topology> element (`lstopo --of xml` writes one)");
  const size_t root_end = xml.find('>', root);
  if (root_end == std::string_view::npos)
    throw InputError(source, line_at(xml, root), "truncated XML: the <topology> tag is never closed");

  // Absent version = format 1.x. hwloc 2.9 imports 1.x and 2.x and refuses anything newer.
  const std::string version = attribute(xml.substr(root, root_end - root), "version");
  if (!version.empty()) {
    const int major = std::atoi(version.c_str());
    if (major > 2)
      throw InputError(source, line_at(xml, root),
                       "hwloc 2.9 cannot read XML format " + version +
                           ": export with hwloc 2.x (`lstopo --of xml`), or with hwloc 3 add "
                           "`--export-xml-flags v2` (HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2)");
  }

  const size_t last = xml.find_last_not_of(" \t\r\n");
  const std::string_view closing = "</topology>";
  if (last + 1 < closing.size() || xml.substr(last + 1 - closing.size(), closing.size()) != closing)
    throw InputError(source, line_at(xml, last),
                     "truncated XML: the file ends before </topology> (export or copy interrupted?)");
}

HwlocTopology init_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw std::runtime_error("hwloc_topology_init failed");
  HwlocTopology topology(raw);
  // Without INCLUDE_DISALLOWED a capture taken inside a cgroup (a Slurm step) loses the PUs
  // outside it, and with them every core a GPU is local to.
  hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  // The default I/O filter is KEEP_NONE: no PCI devices, no OS devices, and the NVLink and
  // XGMI matrices (which reference them) silently dropped. KEEP_ALL also keeps every bridge,
  // which the PCIe path classes count.
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL);
  return topology;
}

// hwloc's built-in parser skips the <?xml?> and <!DOCTYPE> lines and then wants "<topology"
// at the very start of the next line. The prolog rebuilt from its declarations alone, or ""
// when it already has that shape.
std::string rebuilt_prolog(const std::string& text) {
  const size_t root = text.find("<topology");
  std::string prolog;
  for (size_t pos = 0; pos < root;) {
    const size_t open = text.find('<', pos);
    if (open == std::string::npos || open >= root) break;
    const size_t close = text.find('>', open);
    prolog += text.substr(open, close - open + 1) + "\n";
    pos = close + 1;
  }
  return text.compare(0, root, prolog) == 0 ? "" : prolog;
}

// hwloc's reason, from its stderr lines ("hwloc: Topology does not contain any NUMA node,
// aborting!"), else the generic expectation.
std::string hwloc_refusal(const std::string& hwloc_stderr) {
  std::string reason;
  for (size_t pos = 0; pos < hwloc_stderr.size();) {
    size_t end = hwloc_stderr.find('\n', pos);
    if (end == std::string::npos) end = hwloc_stderr.size();
    std::string line = hwloc_stderr.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("hwloc: ", 0) == 0) line.erase(0, 7);
    if (line.empty() || line.find("hwloc_topology_load") != std::string::npos) continue;
    reason += (reason.empty() ? "" : "; ") + line;
  }
  const std::string expected = "expected the output of `lstopo --of xml` from hwloc 1.x or 2.x";
  return reason.empty() ? "hwloc cannot load this XML export: " + expected
                        : "hwloc cannot load this XML export (" + reason + "): " + expected;
}

}  // namespace

namespace {

// The text hwloc is given: comments blanked, checked, the prolog rebuilt.
std::string prepared(const std::string& xml, const std::string& source) {
  std::string text = xml;
  if (text.find("<!--") != std::string::npos) blank_comments(text, xml, source);
  check_export(text, source);
  if (std::string prolog = rebuilt_prolog(text); !prolog.empty()) text = prolog + text.substr(text.find("<topology"));
  return text;
}

// The length includes the terminating NUL, as hwloc's parser expects.
bool hwloc_loads(hwloc_topology_t t, const std::string& text) {
  return hwloc_topology_set_xmlbuffer(t, text.c_str(), static_cast<int>(text.size() + 1)) == 0 &&
         hwloc_topology_load(t) == 0;
}

// How an attempt in a child ends (its exit code); 1 is anything else that escaped it.
enum : int { kLoaded = 0, kUnexpected = 1, kOurChecks = 2, kRefused = 3 };

InputError crash_error(const std::string& source, int signal) {
  return InputError(source, 0,
                    std::string("libhwloc crashes on this XML export (") + strsignal(signal) +
                        "; lstopo does too): the file is damaged — export it again on the node with "
                        "`lstopo --of xml` (or `slurmtopo collect`)");
}

// What a trial child's end says of the file: nullopt when hwloc loads it.
std::optional<InputError> trial_error(const ChildOutcome& trial, const std::string& source) {
  if (trial.signal) return crash_error(source, *trial.signal);
  if (trial.exit_code == kRefused) return InputError(source, 0, hwloc_refusal(trial.stderr_text));
  return std::nullopt;  // loads, or our own checks refuse it, as the load in-process will say
}

// Run in a trial child.
int trial_load(const std::string& xml, const std::string& source) {
  std::string text;
  try {
    text = prepared(xml, source);
  } catch (const InputError&) {
    return kOurChecks;
  }
  return hwloc_loads(init_topology().get(), text) ? kLoaded : kRefused;
}

// An InputError across the pipe: line, file and what was expected, one per line (the last
// may have several).
std::string encoded(const InputError& e) {
  const size_t prefix = std::string_view(InputError(e.file(), e.line(), "").what()).size();
  return std::to_string(e.line()) + "\n" + e.file() + "\n" + std::string(e.what()).substr(prefix);
}

InputError decoded(const std::string& text) {
  const size_t a = text.find('\n'), b = text.find('\n', a + 1);
  return InputError(text.substr(a + 1, b - a - 1), std::atoi(text.c_str()), text.substr(b + 1));
}

}  // namespace

HwlocTopology load_hwloc_xml_text(const std::string& xml, const std::string& source) {
  const std::string text = prepared(xml, source);
  // Tried in a child first: libhwloc crashes on some damaged exports, and says why it refuses
  // one only on stderr ("Topology does not contain any NUMA node"), which the child keeps.
  if (auto e = trial_error(run_in_child([&] { return trial_load(xml, source); }), source)) throw *e;
  HwlocTopology topology = init_topology();
  if (!hwloc_loads(topology.get(), text)) throw InputError(source, 0, hwloc_refusal(""));
  return topology;
}

HwlocTopology load_hwloc_xml(const std::string& path) { return load_hwloc_xml_text(read_file(path), path); }

void load_hwloc_xml_files(const std::vector<std::string>& paths, unsigned parallel, const HwlocUse& use,
                          const HwlocTake& take) {
  // In the child: the one parse of the file, and `use` of it.
  auto attempt = [&](size_t i, std::string& output) {
    const std::string& path = paths[i];
    try {
      const std::string text = prepared(read_file(path), path);
      HwlocTopology topology = init_topology();
      if (!hwloc_loads(topology.get(), text)) return int{kRefused};  // hwloc's reason is on stderr
      output = use(topology.get(), path);
      return int{kLoaded};
    } catch (const InputError& e) {
      output = encoded(e);
      return int{kOurChecks};
    } catch (const std::exception& e) {
      output = e.what();
      return int{kUnexpected};
    }
  };
  // In the parent, as each file ends.
  auto outcome = [&](size_t i, ChildOutcome o) {
    const std::string& path = paths[i];
    if (o.signal) return take(i, "", crash_error(path, *o.signal));
    switch (o.exit_code) {
      case kLoaded: return take(i, std::move(o.output), std::nullopt);
      case kRefused: return take(i, "", InputError(path, 0, hwloc_refusal(o.stderr_text)));
      case kOurChecks: return take(i, "", decoded(o.output));
      default:
        throw std::runtime_error(path + ": loading it in a child process failed (exit code " +
                                 std::to_string(o.exit_code) + ")" + (o.output.empty() ? "" : ": " + o.output));
    }
  };
  run_in_workers(paths.size(), attempt, outcome, parallel);
}

HwlocTopology load_hwloc_live() {
  HwlocTopology topology = init_topology();
  if (hwloc_topology_load(topology.get()) != 0)
    throw std::runtime_error(std::string("hwloc cannot discover this machine: ") + std::strerror(errno));
  return topology;
}

}  // namespace slurmtopo
