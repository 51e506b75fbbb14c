// slurmd's gres.conf rules, each shown failing: the check must be able to say no, including
// where slurmd itself stays silent (-1 at the wrong Links index).
#include "emit/gres_check.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {

const char* kNodes =
    "GresTypes=gpu\n"
    "NodeName=gpu[001-002] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 RealMemory=4085760 Gres=gpu:h100:4\n";

const char* kGood =
    "# comment\n"
    "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia0 Cores=42-55 Links=-1,6,6,6\n"
    "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia1 Cores=14-27 Links=6,-1,6,6\n"
    "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia2 Cores=98-111 Links=6,6,-1,6\n"
    "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia3 Cores=70-83 Links=6,6,6,-1\n";

GresCheck check(const std::string& gres, const std::string& nodes = kNodes, SlurmRelease v = {22, 5}) {
  return check_gres(parse_gres_conf(gres, "gres.conf"), parse_node_conf(nodes, "slurm.conf"), v);
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  return s.replace(pos, from.size(), to);
}

bool has_error(const GresCheck& c, const std::string& text, int line = -1) {
  for (const auto& e : c.errors)
    if (e.message.find(text) != std::string::npos && (line < 0 || e.line == line)) return true;
  return false;
}

}  // namespace

TEST_CASE("gres check: the XE8640 lines pass") {
  GresCheck c = check(kGood);
  CHECK(c.ok());
  CHECK(c.warnings.empty());
}

TEST_CASE("gres check: an unknown key is fatal for slurmd (there is no CoreCnt)") {
  GresCheck c = check(replace(kGood, "Cores=42-55", "CoreCnt=14"));
  CHECK(has_error(c, "unknown key \"corecnt\"", 2));
}

TEST_CASE("gres check: a line must start with NodeName=, Name= or AutoDetect=") {
  CHECK(has_error(check(std::string(kGood) + "Type=h100 Name=gpu File=/dev/nvidia9\n"), "starts with NodeName="));
}

TEST_CASE("gres check: thread ids in Cores= are beyond Sockets x CoresPerSocket") {
  GresCheck c = check(replace(kGood, "Cores=98-111", "Cores=98-111,210-223"));
  CHECK(has_error(c, "beyond the node's 112 cores", 4));
}

TEST_CASE("gres check: -1 at the wrong Links index (slurmd accepts it silently)") {
  GresCheck c = check(replace(kGood, "Links=6,-1,6,6", "Links=-1,6,6,6"));
  CHECK(has_error(c, "needs -1 at index 1", 3));
  CHECK(has_error(c, "-1 belongs only at its own index 1", 3));
}

TEST_CASE("gres check: Links= longer or shorter than the node's GPUs") {
  CHECK(has_error(check(replace(kGood, "Links=-1,6,6,6", "Links=-1,6,6,6,6")), "5 entries for 4 GPUs", 2));
  CHECK(has_error(check(replace(kGood, "Links=-1,6,6,6", "Links=-1,6,6")), "3 entries for 4 GPUs", 2));
}

TEST_CASE("gres check: File= out of PCI order, or twice") {
  std::string swapped = replace(replace(kGood, "File=/dev/nvidia0", "File=/dev/nvidiaX"), "File=/dev/nvidia1", "File=/dev/nvidia0");
  swapped = replace(swapped, "File=/dev/nvidiaX", "File=/dev/nvidia1");
  CHECK(has_error(check(swapped), "after device 1", 3));
  CHECK(has_error(check(replace(kGood, "File=/dev/nvidia3", "File=/dev/nvidia2")), "listed twice", 5));
}

TEST_CASE("gres check: counts must match the NodeName line's Gres=") {
  std::string three = kGood;
  three.erase(three.find("NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia3"));
  GresCheck c = check(three);
  CHECK(has_error(c, "gres.conf has 3 gpu(s), the NodeName line 4"));
  CHECK(has_error(check(kGood, replace(kNodes, " Gres=gpu:h100:4", "")), "has no Gres=gpu"));
  CHECK(has_error(check("", kNodes), "no gpu line for it"));
}

TEST_CASE("gres check: Type must be the one the NodeName line counts") {
  CHECK(has_error(check(replace(kGood, "Type=h100 File=/dev/nvidia3", "Type=a100 File=/dev/nvidia3")),
                  "Gres=gpu:h100:4 but gres.conf has 3 gpu(s) of Type=h100"));
  // Untyped Gres= with typed lines is fine for Slurm.
  CHECK(check(kGood, replace(kNodes, "gpu:h100:4", "gpu:4")).ok());
}

TEST_CASE("gres check: GresTypes=gpu is required") {
  CHECK(has_error(check(kGood, replace(kNodes, "GresTypes=gpu\n", "")), "no GresTypes=gpu"));
}

TEST_CASE("gres check: a gpu line without File=, and Count= disagreeing with File=") {
  CHECK(has_error(check("NodeName=gpu[001-002] Name=gpu Type=h100 Count=4\n"), "without File="));
  CHECK(has_error(check("NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia[0-3] Count=3\n"),
                  "Count=3 but File= names 4"));
  CHECK(check("NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia[0-3] Count=4\n").ok());
}

TEST_CASE("gres check: 24.11 wants whole sockets, 25.11 one socket or all") {
  CHECK(has_error(check(kGood, kNodes, {24, 11}), "each socket fully or not at all"));
  std::string whole = kGood;
  for (auto [from, to] : {std::pair{"Cores=42-55", "Cores=0-55"}, {"Cores=14-27", "Cores=0-55"},
                          {"Cores=98-111", "Cores=56-111"}, {"Cores=70-83", "Cores=56-111"}})
    whole = replace(whole, from, to);
  CHECK(check(whole, kNodes, {24, 11}).ok());
  CHECK(check(whole, kNodes, {25, 11}).ok());
  CHECK(check(whole, kNodes, {22, 5}).ok());  // 22.05 takes whole sockets too
  std::string both = replace(whole, "Cores=0-55 Links=-1", "Cores=0-111 Links=-1");
  CHECK(check(both, kNodes, {25, 11}).ok());  // all cores
  std::string two_of_four = "GresTypes=gpu\nNodeName=q1 Sockets=4 CoresPerSocket=8 ThreadsPerCore=1 Gres=gpu:1\n";
  CHECK(check("NodeName=q1 Name=gpu File=/dev/nvidia0 Cores=0-15\n", two_of_four, {24, 11}).ok());
  CHECK(has_error(check("NodeName=q1 Name=gpu File=/dev/nvidia0 Cores=0-15\n", two_of_four, {25, 11}),
                  "exactly one whole socket or all cores"));
}

TEST_CASE("gres check: one mistake in a class's line is one error naming the hostlist") {
  GresCheck c = check(replace(kGood, "Links=6,6,6,-1", "Links=6,6,-1,6"));
  int n = 0;
  for (const auto& e : c.errors) n += e.message.find("gpu[001-002]: Links= of GPU 3") == 0;
  CHECK(n == 2);  // no -1 at 3, and -1 at 2: one each, not one per node
}

TEST_CASE("gres check: NodeName=DEFAULT values apply to later lines") {
  std::string nodes = "GresTypes=gpu\nNodeName=DEFAULT Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 Gres=gpu:h100:4\n"
                      "NodeName=gpu[001-002] RealMemory=1000\n";
  CHECK(check(kGood, nodes).ok());
  ParsedNodes p = parse_node_conf(nodes, "slurm.conf");
  REQUIRE(p.lines.size() == 1);
  CHECK(p.lines[0].sockets == 2);
  CHECK(p.lines[0].real_memory == 1000);
}

TEST_CASE("gres check: lines for nodes slurm.conf lacks are a warning") {
  GresCheck c = check(std::string(kGood) + "NodeName=other1 Name=gpu File=/dev/nvidia0\n");
  CHECK(c.ok());
  REQUIRE(c.warnings.size() == 1);
  CHECK(c.warnings[0].message.find("other1") != std::string::npos);
}

TEST_CASE("gres check: bad values are named with their line") {
  CHECK(has_error(check(replace(kGood, "Cores=14-27", "Cores=14-x")), "Cores=14-x", 3));
  CHECK(has_error(check(replace(kGood, "Links=6,6,-1,6", "Links=6,6,-1,a")), "Links=6,6,-1,a", 4));
  CHECK(has_error(check(replace(kGood, "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia0",
                                "NodeName=gpu[001-002 Name=gpu Type=h100 File=/dev/nvidia0")),
                  "gpu[001-002", 2));
}
