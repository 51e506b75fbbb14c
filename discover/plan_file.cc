#include "discover/plan_file.h"

#include <fstream>
#include <vector>

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"
#include "base/text.h"
#include "base/words.h"
#include "discover/cable_list.h"
#include "discover/fabric_file.h"
#include "discover/ibdm_topology.h"

namespace slurmtopo {

namespace {

// Enough of the file to tell its form; the whole file is read only for the forms read here.
std::string head_of(const std::string& path) {
  expect_readable_kind(path, "as a cabling plan");
  std::ifstream in(path, std::ios::binary);
  if (!in) return read_file(path, "as a cabling plan");  // names why it cannot be read
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

}  // namespace

std::optional<CablePlan> read_plan_file(const std::string& path) {
  const std::string head = head_of(path);
  if (head.find('\0') != std::string::npos) return std::nullopt;  // binary: a libibnetdisc cache
  if (looks_like_ibdm_topology(head)) return parse_ibdm_topology(read_file(path, "as a cabling plan"), path);
  // A fabric's forms first: a dump may open with ibwarn lines, whose commas are no CSV's.
  try {
    detect_fabric_format(path);
    return std::nullopt;
  } catch (const InputError& e) {
    if (e.line() != 0) throw;  // a form recognised and refused: its own message says what to run
    if (looks_like_cable_list(head)) return parse_cable_list(read_file(path, "as a cabling plan"), path);
    // Not a fabric either: say every form a plan may take, not only the fabric's.
    const std::string what = std::string(e.what()).substr(path.size() + 2);
    throw InputError(path, 0, "not a cabling plan: expected a cable list (CSV, a header line naming a_device,a_port,"
                              "b_device,b_port), an ibdm topology file, or a fabric accepted earlier; as a fabric: " + what);
  }
}

CablePlan read_cable_plan(const std::string& path) {
  if (auto plan = read_plan_file(path)) return std::move(*plan);
  throw InputError(path, 0, "a fabric, not a cable list or ibdm topology file: a fabric needs no fabric made from it");
}

PlanNameMap load_plan_name_map(const std::string& path) {
  PlanNameMap map;
  map.source = path;
  const std::string text = read_file(path, "as a plan name map");
  std::map<std::string, int> fabric_line;  // fabric name → the line that named it
  std::map<std::string, int> plan_line;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int number = lines.number();
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto w = words(t);
    if (w.size() != 2) throw InputError(path, number, "expected `PLAN-NAME FABRIC-NAME`, found " + snippet(t));
    const std::string plan(w[0]), fabric(w[1]);
    if (auto [it, fresh] = plan_line.emplace(plan, number); !fresh)
      throw InputError(path, number, "expected each plan name once, but " + plan + " is also on line " + std::to_string(it->second));
    if (auto [it, fresh] = fabric_line.emplace(fabric, number); !fresh)
      throw InputError(path, number, "expected one plan name per fabric name, but " + fabric + " is also named on line " +
                                         std::to_string(it->second));
    map.fabric_name[plan] = fabric;
  }
  return map;
}

void rename_devices(CablePlan& plan, const PlanNameMap& map) {
  if (map.fabric_name.empty()) return;
  for (PlannedCable& c : plan.cables)
    for (PlanEnd* e : {&c.a, &c.b})
      if (auto it = map.fabric_name.find(e->device); it != map.fabric_name.end()) e->device = it->second;
}

}  // namespace slurmtopo
