// gres.conf lines: File in PCI order, Links with -1 at the GPU's own index and only where
// the inventory has links, and Cores adjusted to each Slurm release's whole-socket rule.
#include "emit/gres_lines.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "base/version.h"
#include "tests/graph/node_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("each release's Cores= rule") {
  CHECK(core_rule({22, 5}) == CoreRule::AsIs);
  CHECK(core_rule({24, 5}) == CoreRule::AsIs);
  CHECK(core_rule({24, 11}) == CoreRule::WholeSockets);
  CHECK(core_rule({25, 5}) == CoreRule::WholeSockets);
  CHECK(core_rule({25, 11}) == CoreRule::OneSocketOrAll);
  CHECK(core_rule({26, 5}) == CoreRule::OneSocketOrAll);
}

TEST_CASE("Cores: an SNC/NPS domain widens to its socket from 24.11 on") {
  auto snc = range(42, 55);  // a quarter of socket 0 (2 x 56 cores)
  CHECK(slurm_cores(snc, 2, 56, CoreRule::AsIs) == snc);
  CHECK(slurm_cores(snc, 2, 56, CoreRule::WholeSockets) == range(0, 55));
  CHECK(slurm_cores(snc, 2, 56, CoreRule::OneSocketOrAll) == range(0, 55));
  CHECK(slurm_cores(range(56, 111), 2, 56, CoreRule::OneSocketOrAll) == range(56, 111));
}

TEST_CASE("Cores: spanning two of four sockets is whole sockets for 24.11, all cores for 25.11") {
  std::vector<int> span = range(10, 30);  // sockets 0 and 1 of 4 x 16
  std::vector<int> two = range(0, 31);
  CHECK(slurm_cores(span, 4, 16, CoreRule::WholeSockets) == two);
  CHECK(slurm_cores(span, 4, 16, CoreRule::OneSocketOrAll) == range(0, 63));
  CHECK(slurm_cores(two, 4, 16, CoreRule::WholeSockets) == two);
}

TEST_CASE("Cores: unknown locality stays empty, ids beyond the node are left for the check") {
  CHECK(slurm_cores({}, 2, 56, CoreRule::OneSocketOrAll).empty());
  CHECK(slurm_cores({5, 200}, 2, 56, CoreRule::WholeSockets) == std::vector<int>{5, 200});
}

TEST_CASE("XE8640 for 22.05: local cores, NVLink counts with -1 at each GPU's own index") {
  ClassGres c = gres_for_class(xe8640_like("gpu001"), "gpu[001-002]", {22, 5});
  REQUIRE(c.gpus.size() == 4);
  CHECK(c.gpus[0].file == "/dev/nvidia0");
  CHECK(c.gpus[3].file == "/dev/nvidia3");
  CHECK(format_ranges(c.gpus[0].cores) == "42-55");
  CHECK(c.gpus[2].links == std::vector<int>{6, 6, -1, 6});
  CHECK(c.notes.empty());
  const std::string text = render_gres_conf({c}, {"slurmtopo emit gres --nodes-dir n", "Slurm 22.05 (--slurm-version 22.05)"});
  CHECK(text ==
        "# gres.conf written by slurmtopo " + slurmtopo_version() +
            ": slurmtopo emit gres --nodes-dir n\n"
        "# for Slurm 22.05 (--slurm-version 22.05)\n"
        "# Cores= are Slurm core ids (hwloc Core L#, socket-major), not CPU ids; File= in PCI bus id order.\n"
        "\n"
        "# gpu[001-002]: 4 GPUs\n"
        "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia0 Cores=42-55 Links=-1,6,6,6\n"
        "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia1 Cores=14-27 Links=6,-1,6,6\n"
        "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia2 Cores=98-111 Links=6,6,-1,6\n"
        "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia3 Cores=70-83 Links=6,6,6,-1\n");
}

TEST_CASE("XE8640 for 24.11 and 25.11: whole sockets, and the file says so") {
  for (SlurmRelease v : {SlurmRelease{24, 11}, SlurmRelease{25, 11}}) {
    ClassGres c = gres_for_class(xe8640_like("gpu001"), "gpu001", v);
    CHECK(format_ranges(c.gpus[0].cores) == "0-55");
    CHECK(format_ranges(c.gpus[0].local_cores) == "42-55");
    CHECK(format_ranges(c.gpus[2].cores) == "56-111");
    REQUIRE(c.notes.size() == 1);
    CHECK(c.notes[0].find("Cores= widened for Slurm " + to_string(v)) == 0);
    CHECK(c.notes[0].find("GPU 0 42-55 → 0-55") != std::string::npos);
    CHECK(render_gres_conf({c}, {"", "Slurm " + to_string(v)}).find("# Cores= widened") != std::string::npos);
  }
}

TEST_CASE("NVSwitch systems: no Links=, and a note why") {
  ClassGres c = gres_for_class(dgx_like("dgx001", 0), "dgx[001-064]", {22, 5});
  REQUIRE(c.gpus.size() == 8);
  for (const auto& g : c.gpus) CHECK(g.links.empty());
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].find("no Links=") == 0);
  const std::string text = render_gres_conf({c}, {"", "Slurm 22.05"});
  CHECK(text.find("NodeName=dgx[001-064] Name=gpu Type=h100 File=/dev/nvidia4 Cores=56-111\n") != std::string::npos);
  CHECK(text.find("Links") == text.find("Links=: the inventory"));  // only in the note
}

TEST_CASE("an inventory with 0 on its diagonal still gets -1 at the GPU itself") {
  NodeInventory n = xe8640_like("gpu001");
  for (size_t g = 0; g < n.gpus.size(); ++g) n.gpus[g].nvlinks[g] = 0;
  ClassGres c = gres_for_class(n, "gpu001", {22, 5});
  CHECK(c.gpus[1].links == std::vector<int>{6, -1, 6, 6});
}

TEST_CASE("--dev-dir moves File= for test rigs, names kept") {
  ClassGres c = gres_for_class(dgx_like("dgx001", 0, 2), "dgx001", {22, 5}, "/tmp/rig/dev");
  CHECK(c.gpus[1].file == "/tmp/rig/dev/nvidia1");
  c = gres_for_class(dgx_like("dgx001", 0, 2), "dgx001", {22, 5}, "/tmp/rig/dev/");
  CHECK(c.gpus[0].file == "/tmp/rig/dev/nvidia0");
}

TEST_CASE("an untyped GPU gets no Type=") {
  NodeInventory n = dgx_like("dgx001", 0, 2);
  for (auto& g : n.gpus) g.slurm_type.clear();
  const std::string text = render_gres_conf({gres_for_class(n, "dgx001", {22, 5})}, {"", "Slurm 22.05"});
  CHECK(text.find("NodeName=dgx001 Name=gpu File=/dev/nvidia0 Cores=0-55\n") != std::string::npos);
}
