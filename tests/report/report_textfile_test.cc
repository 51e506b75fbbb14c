// The report's textfile: each check's verdict and every node finding per host, as node_exporter
// reads it (promtool check metrics, where the prometheus package is installed).
#include "report/report_textfile.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "commission_fixture.h"
#include "graph/node_join.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report textfile: the checks, the findings per kind, each node finding per host") {
  CommissionReport r = superpod_report();
  r.findings.push_back(make_finding("nodes", finding_kind(NodeAnomaly::Kind::PcieDowntrained), "dgx[003-004]",
                                    "GPU 3 (0000:61:00.0) at x8 Gen5, capable of x16 Gen5: half its PCIe bandwidth", 2));
  const std::string t = report_textfile(r, 1764633600);
  for (const Check& c : r.checks)
    CHECK(t.find("slurmtopo_report_check{check=\"" + c.id + "\"} ") != std::string::npos);
  CHECK(t.find("slurmtopo_node_finding{host=\"dgx003\",kind=\"pcie-downtrained\",check=\"nodes.health\","
               "severity=\"fail\"} 1\n") != std::string::npos);
  CHECK(t.find("slurmtopo_node_finding{host=\"dgx004\",kind=\"pcie-downtrained\"") != std::string::npos);
  CHECK(t.find("slurmtopo_report_findings{source=\"nodes\",kind=\"pcie-downtrained\",check=\"nodes.health\","
               "severity=\"fail\"} 2\n") != std::string::npos);
  CHECK(t.find("slurmtopo_report_findings{source=\"nodes\",kind=\"rail-leaf\"") != std::string::npos);
  CHECK(t.find("slurmtopo_node_finding{host=\"dgx010\",kind=\"rail-leaf\"") != std::string::npos);
  CHECK(t.find("slurmtopo_report_timestamp_seconds 1764633600\n") != std::string::npos);

  // Written as DIR/slurmtopo_report.prom with the other renderings, and promtool accepts it.
  char tmpl[] = "/tmp/slurmtopo-report-textfile-XXXXXX";
  const std::filesystem::path dir = mkdtemp(tmpl);
  CommissionOutputs o;
  o.textfile = dir.string();
  o.now = 1764633600;
  std::ostringstream out;
  write_commission(r, o, out);
  const std::string file = (dir / "slurmtopo_report.prom").string();
  REQUIRE(std::filesystem::exists(file));
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) {
    slurmtopo::testing::skip("promtool (Debian package prometheus) is not installed");
  } else {
    const std::string cmd = "promtool check metrics < " + file + " > " + (dir / "out").string() + " 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream in(dir / "out");
    const std::string lint{std::istreambuf_iterator<char>(in), {}};
    INFO(lint);
    CHECK(rc == 0);
    CHECK(lint.empty());
  }
  std::filesystem::remove_all(dir);
}
