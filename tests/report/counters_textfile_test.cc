// The node_exporter textfile of port counters, on the ibsim fabric of tests/data/counters whose
// counters were set through ibsim's console: each cable end a series per non-zero counter,
// under node_exporter's infiniband names, labelled as an admin finds the cable at the rack.
#include "report/counters_textfile.h"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "graph/cluster_inputs.h"

using namespace slurmtopo;

namespace {

const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/counters/";

std::string textfile() {
  ClusterInputs in;
  in.fabric_files = {kData + "fabric.ibnetdiscover"};
  in.counter_files = {kData + "ibqueryerrors.txt"};
  return counters_textfile(load_cluster(in), 1764979200);
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("counters textfile: a host cable's end is labelled with its switch, port, host and HCA") {
  const std::string t = textfile();
  CAPTURE(t);
  CHECK(has_line(t, R"(slurmtopo_infiniband_symbol_error_total{end="switch",switch="su1-rail0",port="1",host="dgx001",hca="mlx5_0"} 500)"));
  CHECK(has_line(t, R"(slurmtopo_infiniband_link_error_recovery_total{end="switch",switch="su1-rail0",port="1",host="dgx001",hca="mlx5_0"} 12)"));
  // The HCA end of another cable: the same labels, told apart by `end`.
  CHECK(has_line(t, R"(slurmtopo_infiniband_port_errors_received_total{end="hca",switch="su2-rail0",port="1",host="dgx003",hca="mlx5_0"} 25)"));
}

TEST_CASE("counters textfile: a cable between switches names this end and the remote one") {
  const std::string t = textfile();
  CAPTURE(t);
  CHECK(has_line(t, R"(slurmtopo_infiniband_port_receive_remote_physical_errors_total{end="switch",switch="su2-rail0",port="3",remote_switch="rail0-spine01",remote_port="3"} 200)"));
  CHECK(has_line(t, R"(slurmtopo_infiniband_port_discards_transmitted_total{end="switch",switch="rail0-spine01",port="3",remote_switch="su2-rail0",remote_port="3"} 150)"));
}

TEST_CASE("counters textfile: an end under its thresholds still has its series, and is not counted over") {
  const std::string t = textfile();
  CAPTURE(t);
  // dgx002's 5 symbol errors are under the threshold of 10: a series that must not vanish
  // between scrapes, but no finding.
  CHECK(has_line(t, R"(slurmtopo_infiniband_symbol_error_total{end="hca",switch="su1-rail0",port="2",host="dgx002",hca="mlx5_0"} 5)"));
  CHECK(has_line(t, R"(slurmtopo_cable_ends_over_threshold{kind="cable-errors"} 2)"));
  CHECK(has_line(t, R"(slurmtopo_cable_ends_over_threshold{kind="upstream-errors"} 1)"));
  CHECK(has_line(t, R"(slurmtopo_cable_ends_over_threshold{kind="congestion"} 1)"));
  CHECK(has_line(t, R"(slurmtopo_cable_ends_over_threshold{kind="switch-errors"} 0)"));
  CHECK(has_line(t, "slurmtopo_port_counters_read_timestamp_seconds 1764979200"));
  // Port 7's stuck counters are on no cable: no series names it.
  CHECK(t.find(R"(port="7")") == std::string::npos);
}

TEST_CASE("counters textfile: each metric's HELP and TYPE once, before its series, and the same bytes each time") {
  const std::string t = textfile();
  CHECK(t == textfile());
  const std::string type = "# TYPE slurmtopo_infiniband_symbol_error_total counter\n";
  const size_t at = t.find(type);
  REQUIRE(at != std::string::npos);
  CHECK(t.find(type, at + 1) == std::string::npos);
  CHECK(t.find("slurmtopo_infiniband_symbol_error_total{") > at);
  // Zero counters make no series.
  std::istringstream lines(t);
  int series = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("slurmtopo_infiniband_", 0) == 0) {
      ++series;
      CHECK_MESSAGE(line.substr(line.size() - 2) != " 0", line);
    }
  CHECK(series == 6);  // su1-rail0[1] two counters; dgx003, su2-rail0[3], rail0-spine01[3] and dgx002 one each
}
