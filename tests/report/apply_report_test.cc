// The node_exporter textfile parses as Prometheus text format (promtool, as the admin's
// monitoring would read it) and carries the counts; the exit-code wording on stderr.
#include "report/apply_report.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/version.h"

using namespace slurmtopo;

namespace {
ApplyResult sample() {
  ApplyResult r;
  r.outcome = ApplyOutcome::RolledBack;
  r.reason = "slurmctld does not answer";
  r.anomalies = {{"degraded-link", 2}, {"missing-uplinks", 1}};
  r.degraded_links = 2;
  r.missing_links = 1;
  r.out_of_topology = {"cn065", "cn066"};
  return r;
}
}  // namespace

TEST_CASE("apply textfile: counts by kind, links, hosts out of topology, last result and time") {
  const std::string t = apply_textfile(sample(), 1764633600);
  CHECK(t.find("slurmtopo_anomalies{kind=\"degraded-link\"} 2\n") != std::string::npos);
  CHECK(t.find("slurmtopo_links_degraded 2\n") != std::string::npos);
  CHECK(t.find("slurmtopo_links_missing 1\n") != std::string::npos);
  CHECK(t.find("slurmtopo_hosts_out_of_topology 2\n") != std::string::npos);
  CHECK(t.find("slurmtopo_last_apply_timestamp_seconds 1764633600\n") != std::string::npos);
  CHECK(t.find("slurmtopo_last_apply_exit_code 3\n") != std::string::npos);
  CHECK(t.find("slurmtopo_last_apply_result{result=\"rolled-back\"} 1\n") != std::string::npos);
  CHECK(t.find("slurmtopo_last_apply_result{result=\"applied\"} 0\n") != std::string::npos);
}

TEST_CASE("apply textfile: written atomically as DIR/slurmtopo.prom, and promtool check metrics accepts it") {
  char tmpl[] = "/tmp/slurmtopo-textfile-XXXXXX";
  const std::filesystem::path dir = mkdtemp(tmpl);
  write_apply_textfile(dir.string(), sample(), 1764633600);
  const std::string file = (dir / "slurmtopo.prom").string();
  CHECK(std::filesystem::exists(file));
  const bool have_promtool = std::system("command -v promtool >/dev/null 2>&1") == 0;
  if (!have_promtool) {
    const char* no_skips = std::getenv("SLURMTOPO_NO_SKIPS");
    CHECK_MESSAGE(!(no_skips && std::string(no_skips) == "1"), "promtool (Debian package prometheus) is not installed");
    MESSAGE("promtool not installed: format not checked");
  } else {
    const std::string cmd = "promtool check metrics < " + file + " > " + (dir / "out").string() + " 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream in(dir / "out");
    const std::string out{std::istreambuf_iterator<char>(in), {}};
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.empty());  // no lint findings either
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("apply report: a failure says what was rolled back on stderr, exit code in --json") {
  std::ostringstream out, err;
  report_apply(sample(), false, out, err);
  CHECK(err.str().find("apply failed and was rolled back: slurmctld does not answer") != std::string::npos);
  std::ostringstream jout, jerr;
  report_apply(sample(), true, jout, jerr);
  CHECK(jout.str().find("\"exit_code\": 3") != std::string::npos);
  CHECK(jout.str().find("\"slurmtopo_version\": \"" + slurmtopo_version() + "\"") != std::string::npos);
  CHECK(jout.str().find("\"result\": \"rolled-back\"") != std::string::npos);
}
