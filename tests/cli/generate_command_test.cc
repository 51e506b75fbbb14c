// `slurmtopo generate … --format ibsim` and the cable faults, as a test author runs them.
#include <doctest/doctest.h>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

TEST_CASE("slurmtopo generate --format ibsim: a net file with the faults asked for") {
  Scratch s;
  const auto r = run("generate fattree --levels 2 --radix 8 --speed HDR --format ibsim --degrade-cable leaf002,spine01,1x "
                     "--degrade-cable leaf003,spine02,EDR --remove-cable leaf004,spine03 -o " + s.path("fabric.net"));
  REQUIRE(r.code == 0);
  const std::string net = s.read("fabric.net");
  CHECK(net.rfind("# ibsim net file", 0) == 0);
  // The degraded cables on both ends; the removed one on neither.
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = 0; (at = net.find(what, at)) != std::string::npos; ++at) ++n;
    return n;
  };
  CHECK(count("1xHDR") == 2);
  CHECK(count("4xEDR") == 2);
  CHECK(count("4xHDR") == 2 * (32 + 32 - 3));  // 32 host cables, 31 of 32 uplinks left, 2 degraded
  // The same fabric as ibnetdiscover text reads back with the same anomalies.
  REQUIRE(run("generate fattree --levels 2 --radix 8 --speed HDR --degrade-cable leaf002,spine01,1x "
              "--degrade-cable leaf003,spine02,EDR --remove-cable leaf004,spine03 -o " + s.path("fabric.topo")).code == 0);
  const auto net_inspect = run("inspect --fabric " + s.path("fabric.net"));
  const auto topo_inspect = run("inspect --fabric " + s.path("fabric.topo"));
  CHECK(net_inspect.code == 0);
  CHECK(net_inspect.output.find("degraded-link  leaf002[") != std::string::npos);
  CHECK(net_inspect.output.find("missing-uplinks") != std::string::npos);
  CHECK(net_inspect.output.substr(net_inspect.output.find("switches by level")) ==
        topo_inspect.output.substr(topo_inspect.output.find("switches by level")));
}

TEST_CASE("slurmtopo generate --format ibsim: NDR (ibsim 0.10 has none) and bad fault syntax are exit 2") {
  Scratch s;
  const auto ndr = run("generate fattree --levels 2 --radix 8 --format ibsim -o " + s.path("ndr.net"));
  CHECK(ndr.code == 2);
  CHECK(ndr.output.find("slurmtopo: --format: ibsim: ") != std::string::npos);
  CHECK(ndr.output.find("NDR, which ibsim 0.10 cannot emulate") != std::string::npos);
  CHECK_FALSE(s.exists("ndr.net"));
  CHECK(run("generate fattree --levels 2 --radix 8 --degrade-cable leaf001").code == 2);
  CHECK(run("generate fattree --levels 2 --radix 8 --degrade-cable leaf001,spine01,4xQQR").code == 2);
  const auto nowhere = run("generate fattree --levels 2 --radix 8 --remove-cable leaf001,nowhere");
  CHECK(nowhere.code == 2);
  CHECK(nowhere.output.find("slurmtopo: --remove-cable: no switch or host named 'nowhere'") != std::string::npos);
  // A spec the tree cannot hold names the option to change, not the command.
  const auto hosts = run("generate fattree --levels 2 --radix 8 --hosts 100");
  CHECK(hosts.code == 2);
  CHECK(hosts.output.find("slurmtopo: --hosts: 100 hosts exceed the 32 of this 2-level tree") != std::string::npos);
  CHECK(run("generate fattree --levels 2 --radix 8 --format dot").code == 2);
}

TEST_CASE("slurmtopo generate --speed: any case, and a speed the check accepts is one it builds") {
  Scratch s;
  const auto lower = run("generate fattree --levels 2 --radix 8 --speed ndr -o " + s.path("ndr.topo"));
  CHECK(lower.code == 0);
  CHECK(s.read("ndr.topo").find("4xNDR") != std::string::npos);
  // XDR is a real speed but no generator has a switch model for it: refused by the check
  // itself, naming the ones it has, rather than passing it and failing later.
  const auto xdr = run("generate fattree --levels 2 --radix 8 --speed XDR -o " + s.path("xdr.topo"));
  CHECK(xdr.code == 2);
  CHECK(xdr.output.find("expected EDR, HDR or NDR") != std::string::npos);
  CHECK(xdr.output.find("no switch model") == std::string::npos);
  CHECK_FALSE(s.exists("xdr.topo"));
}

TEST_CASE("slurmtopo generate railopt --planes: one dump and, up to HDR, one ibsim net file per plane") {
  Scratch s;
  const std::string spec = "generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --speed HDR";
  auto r = run(spec + " --planes 2 -o " + s.path("rail"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  for (const char* f : {"rail-plane1.topo", "rail-plane1.net", "rail-plane2.topo", "rail-plane2.net"}) {
    CAPTURE(f);
    CHECK(s.exists(f));
  }
  CHECK(s.read("rail-plane1.topo").find("dgx001 mlx5_1") != std::string::npos);
  CHECK(s.read("rail-plane1.topo").find("dgx001 mlx5_2") == std::string::npos);
  r = run("emit topology --fabric " + s.path("rail-plane1.topo") + " --fabric " + s.path("rail-plane2.topo"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("SwitchName=su1 Nodes=dgx[001-004]") != std::string::npos);
  const auto odd = run(spec + " --planes 3 -o " + s.path("odd"));  // 4 rails into 3 planes
  CHECK(odd.code == 2);
  CHECK(odd.output.find("slurmtopo: --planes: 4 rails do not divide into 3 planes") != std::string::npos);
  CHECK(run(spec + " --planes 2").code == 2);  // needs -o
  // At NDR (the default) ibsim has no net file to give: the dumps are written, the net files
  // are left out with a note saying so.
  r = run("generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --planes 2 -o " + s.path("ndr"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(s.exists("ndr-plane1.topo"));
  CHECK(s.exists("ndr-plane2.topo"));
  CHECK_FALSE(s.exists("ndr-plane1.net"));
  CHECK(r.output.find("no ibsim net files (" + s.path("ndr") + "-planeK.net)") != std::string::npos);
  CHECK(r.output.find("--speed HDR or slower") != std::string::npos);
  r = run(spec + " --cross-rails dgx002,1,2 -o " + s.path("crossed.topo"));
  REQUIRE(r.code == 0);
  r = run("inspect --fabric " + s.path("crossed.topo"));
  CHECK(r.output.find("crossed-rails  dgx002: mlx5_1 is cabled to su1-rail2[2] and mlx5_2 to su1-rail1[2]") !=
        std::string::npos);
  CHECK(run(spec + " --cross-rails dgx002,1 -o " + s.path("bad.topo")).code == 2);
}

TEST_CASE("slurmtopo generate --hca-generation: older HCAs are mixed generations, a degraded cable still fails") {
  Scratch s;
  const auto r = run("generate fattree --levels 2 --radix 8 --hosts 16 --hca-generation 'gpu[001-004]:HDR' "
                     "--degrade-cable gpu010,leaf003,1x -o " + s.path("mixed.topo"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const std::string topo = s.read("mixed.topo");
  // The older model's device id is in the dump, so a reader knows what those HCAs can do.
  CHECK(topo.find("devid=0x101b\nsysimgguid=0xb83fd20300c00000\ncaguid=0xb83fd20300c00000\nCa\t1 \"H-b83fd20300c00000\"\t\t# \"gpu001 mlx5_0\"") !=
        std::string::npos);
  CHECK(topo.find("\"gpu001 mlx5_0\" lid") != std::string::npos);
  const auto i = run("inspect --fabric " + s.path("mixed.topo"));
  REQUIRE(i.code == 0);
  CHECK(i.output.find("anomalies: 1  degraded-link 1\n") != std::string::npos);
  CHECK(i.output.find("degraded-link  leaf003[") != std::string::npos);
  CHECK(i.output.find("leaf003[2] - gpu010 mlx5_0: 1xNDR; both ends support 4xNDR (ConnectX-7 0x1021, Quantum-2 0xd2f2)\n") !=
        std::string::npos);
  CHECK(i.output.find("  4 cables 4xHDR: ConnectX-6 0x101b supports HDR at most: mixed generations, not a fault\n") !=
        std::string::npos);
  CHECK(run("generate fattree --radix 8 --hca-generation 'gpu001'").code == 2);
  CHECK(run("generate fattree --radix 8 --hca-generation 'gpu001:QQR'").code == 2);
  CHECK(run("generate fattree --radix 8 --hosts 4 --hca-generation 'gpu099:EDR'").code == 2);
}
