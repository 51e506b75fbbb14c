#include "slurm/config_lines.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("slurm conf lines: comments, escaped #, continuations glued without a blank, CRLF") {
  const auto lines = read_slurm_conf_lines(
      "NodeName=a[1-2] # two nodes\r\n"
      "\n"
      "Feature=x\\#y\n"
      "NodeName=b[1-\\\n"
      "4] CPUs=8\n"
      "Last=1");
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].number == 1);
  CHECK(lines[0].text == "NodeName=a[1-2] ");
  CHECK(lines[1].text.empty());
  CHECK(lines[2].text == "Feature=x\\#y");
  CHECK(lines[3].number == 4);
  CHECK(lines[3].text == "NodeName=b[1-4] CPUs=8");
  CHECK(lines[4].number == 6);
  CHECK(lines[4].text == "Last=1");
}

TEST_CASE("slurm conf lines: an even run of backslashes does not continue") {
  const auto lines = read_slurm_conf_lines("A=x\\\\\nB=y\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].text == "A=x\\\\");
}

TEST_CASE("slurm conf lines: words and case-insensitive keys") {
  const auto words = slurm_conf_words("  SwitchName=s1\tNodes=n[1-2]  ");
  REQUIRE(words.size() == 2);
  CHECK(words[1] == "Nodes=n[1-2]");
  CHECK(ascii_lower("SwitchName") == "switchname");
  CHECK(iequals("NODENAME", "NodeName"));
  CHECK_FALSE(iequals("NodeNames", "NodeName"));
}
