#include <doctest/doctest.h>

#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report Markdown: the verdict first, a line per check, every finding") {
  const CommissionReport& r = superpod_report();
  const std::string md = commission_markdown(r);
  CHECK(md.rfind("# Commissioning report for superpod: FAIL\n", 0) == 0);  // samples/slurm.conf's ClusterName
  for (const auto& c : r.checks) CHECK(md.find("| " + c.id + " | ") != std::string::npos);
  for (const auto& f : r.findings) CHECK(md.find("| " + f.kind + " | " + f.subject) != std::string::npos);
  CHECK(commission_markdown(fattree_report()).find("None.") != std::string::npos);
}
