#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML links: the bad cables, and the leaf short of an uplink marked") {
  std::ostringstream out;
  html_links(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("su2-rail6[24] - rail6-spine01[24]") != std::string::npos);
  CHECK(s.find("<tr class=\"fail\"><td>su4-rail5</td>") != std::string::npos);
  std::ostringstream clean;
  html_links(fattree_report(), clean);
  CHECK(clean.str().find("No degraded, missing, crossed or looped cable.") != std::string::npos);
  CHECK(clean.str().find("2.00:1") != std::string::npos);  // the sample's 2:1 leaves
}

TEST_CASE("report HTML links: the port counters' findings among the cables, a line per input, a row per cable end above its thresholds") {
  std::ostringstream out;
  html_links(counters_report(), out);
  const std::string s = out.str();
  const std::string file = counters_data("ibqueryerrors.txt");
  // The fabric.errors findings are cable findings, with what to do.
  CHECK(s.find("<td>cable-errors</td><td>su1-rail0[1] - dgx001 mlx5_0</td>") != std::string::npos);
  CHECK(s.find("<td>cable-errors</td><td>dgx003 mlx5_0 - su2-rail0[1]</td>") != std::string::npos);
  CHECK(s.find("<td>congestion</td><td>rail0-spine01[3] - su2-rail0[3]</td>") != std::string::npos);
  CHECK(s.find("reseat the cable at both ends") != std::string::npos);
  // The input, and how its ports met the fabric.
  CHECK(s.find("<p class=\"meta\">port counters (ibqueryerrors, " + file +
               "): 6 ports, 5 on cables, 1 not cabled, 0 unknown to the fabric, 3 switches summed</p>") !=
        std::string::npos);
  // Each cable end: this end first, its counters with values, where they were read; a cable
  // error fails, the others warn.
  CHECK(s.find("<caption>Port counters: cable ends above their thresholds</caption>") != std::string::npos);
  CHECK(s.find("<tr class=\"fail\"><td>su1-rail0[1] - dgx001 mlx5_0</td><td>SymbolErrorCounter 500, "
               "LinkErrorRecoveryCounter 12</td><td>" + file + ":13</td></tr>") != std::string::npos);
  CHECK(s.find("<tr class=\"warn\"><td>rail0-spine01[3] - su2-rail0[3]</td><td>PortXmitDiscards 150</td><td>" + file +
               ":8</td></tr>") != std::string::npos);
  // The table comes before the leaves'.
  CHECK(s.find("Port counters:") < s.find("Leaves: capacity"));
}

TEST_CASE("report HTML links: without --counters nothing is said about counters") {
  std::ostringstream out;
  html_links(no_counters_report(), out);
  const std::string s = out.str();
  CHECK(s.find("No degraded, missing, crossed or looped cable.</p>") != std::string::npos);
  CHECK(s.find("ort counters") == std::string::npos);
  CHECK(s.find("threshold") == std::string::npos);
  CHECK(s.find("counting errors") == std::string::npos);
}
