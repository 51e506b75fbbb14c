#include "graph/finding_kind.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "graph/cluster.h"
#include "graph/input_match.h"
#include "graph/node_join.h"

using namespace slurmtopo;

namespace {

std::vector<FindingKind> every_kind() {
  std::vector<FindingKind> out(std::begin(kAnomalyKinds), std::end(kAnomalyKinds));
  out.insert(out.end(), std::begin(kNodeAnomalyKinds), std::end(kNodeAnomalyKinds));
  out.insert(out.end(), std::begin(kInputFindingKinds), std::end(kInputFindingKinds));
  return out;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("finding kinds: every kind names a known check, a non-empty rule and what it counts") {
  for (const FindingKind& k : every_kind()) {
    CAPTURE(k.name);
    CHECK(find_finding_check(k.check) != nullptr);
    CHECK(std::string(k.fires).size() > 10);
    CHECK(std::string(k.counts).size() > 2);
  }
  CHECK(find_finding_check("no.such.check") == nullptr);
}

// The users' page (docs/findings.md) lists every kind with its check and severity as the code
// declares them: a row per kind, "| `name` | `check` | severity |".
TEST_CASE("finding kinds: docs/findings.md says what the code declares") {
  const std::string doc = read(std::string(SLURMTOPO_SOURCE_DIR) + "/docs/findings.md");
  REQUIRE(!doc.empty());
  for (const FindingKind& k : every_kind()) {
    CAPTURE(k.name);
    const std::string row = std::string("| `") + k.name + "` | `" + k.check + "` | " + to_string(k.severity) + " |";
    CHECK(doc.find(row) != std::string::npos);
  }
  for (const FindingCheck& c : finding_checks()) {
    CAPTURE(c.id);
    CHECK(doc.find(std::string("| `") + c.id + "` |") != std::string::npos);
  }
}
