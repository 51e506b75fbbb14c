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

TEST_CASE("report Markdown: the port counters, each input and each cable end above its thresholds, and nothing without --counters") {
  const std::string md = commission_markdown(counters_report());
  const std::string file = counters_data("ibqueryerrors.txt");
  CHECK(md.find("\n## Port counters\n\n- port counters (ibqueryerrors, " + file + "): 6 ports, 5 on cables") !=
        std::string::npos);
  CHECK(md.find("| su1-rail0[1] - dgx001 mlx5_0 | SymbolErrorCounter 500, LinkErrorRecoveryCounter 12 | " + file +
                ":13 |\n") != std::string::npos);
  CHECK(md.find("| fail | cable-errors | dgx003 mlx5_0 - su2-rail0[1] |") != std::string::npos);
  const std::string plain = commission_markdown(no_counters_report());
  CHECK(plain.find("Port counters") == std::string::npos);
  CHECK(plain.find("port counters") == std::string::npos);
}
