// What every finding kind declares where it is defined: the name inspect prints, the check of
// the commissioning report it decides, and how much it weighs there. The report reads these
// and nothing else, so a kind added later cannot fall through to a catch-all: a kind without
// a known check does not compile its table's test (tests/graph/finding_kind_test.cc).
#pragma once

#include <span>
#include <string_view>

namespace slurmtopo {

// Fail: breaks jobs or Slurm (a bad cable, a rail on the wrong leaf). Warn: needs a look, may
// be on purpose (an HCA without a host name). Info: what slurmtopo decided, listed for the
// admin to confirm, never a fault (a storage leaf kept out of Slurm's leaves).
enum class Severity { Info, Warn, Fail };
const char* to_string(Severity severity);

struct FindingKind {
  const char* name;       // as inspect prints it: "degraded-link"
  const char* check;      // the report check it decides: "fabric.cabling"
  Severity severity;
  const char* fires;      // when it fires, one line (docs and `inspect --json`)
  const char* counts;     // what a finding's count counts: "HCAs", "hosts", "cables"
};

struct FindingCheck {
  const char* id;    // stable: "fabric.cabling"
  const char* what;  // what a pass means, one line
  // Decided by the fabric alone, so shown in every report; otherwise shown only where its
  // input was given (counters, a plan, node exports, Slurm's files, a profile) or a finding
  // names it: a pass without the input would be a claim.
  bool always = false;
};

// Every check a finding kind may name, in the order the report shows them.
std::span<const FindingCheck> finding_checks();
// The check with this id, or nullptr.
const FindingCheck* find_finding_check(std::string_view id);

}  // namespace slurmtopo
