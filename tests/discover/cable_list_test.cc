// Cable lists in CSV (discover/cable_list.h): the columns by name in any order, the cable
// validation tool's names, quoted cells, switch and HCA ports as plans write them; every bad
// line named by its number; and the list generate --format plan writes read back the same.
#include "discover/cable_list.h"

#include <doctest/doctest.h>

#include <string>

#include "base/input_error.h"

using namespace slurmtopo;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_cable_list(text, "cables.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("cable list: ends, types, width and speed by column name, comments and blank lines passed over") {
  const std::string text =
      "# handed over 2026-11-30\n"
      "\n"
      "a_device,a_port,b_device,b_port,width,speed\n"
      "leaf01,1,dgx001,mlx5_0,4x,NDR\n"
      "leaf01,P2,dgx001,mlx5_1/2,4,ndr\n"
      "spine01,33/2,leaf01,P33,,\n"
      "leaf01,3,\"dgx002\",HCA-1,,\n";
  CHECK(looks_like_cable_list(text));
  const CablePlan plan = parse_cable_list(text, "cables.csv");
  REQUIRE(plan.cables.size() == 4);
  CHECK(plan.source == "cables.csv");
  const PlannedCable& c = plan.cables[0];
  CHECK(c.a.device == "leaf01");
  CHECK(c.a.port == "1");
  CHECK(c.a.switch_end);
  CHECK(c.b.device == "dgx001");
  CHECK(c.b.port == "mlx5_0");
  CHECK_FALSE(c.b.switch_end);
  CHECK(c.width == 4);
  CHECK(c.speed == LinkSpeed::NDR);
  CHECK(c.line == 4);
  CHECK(plan.cables[1].a.port == "2");
  CHECK(plan.cables[1].b.port == "mlx5_1/2");
  // A split cage: cage 33, lane 2 is port 66.
  CHECK(plan.cables[2].a.port == "66");
  CHECK(plan.cables[2].width == 0);
  CHECK(plan.cables[2].speed == LinkSpeed::Unknown);
  CHECK(plan.cables[3].b.device == "dgx002");
  CHECK(plan.cables[3].b.port == "HCA-1");
}

TEST_CASE("cable list: the cable validation tool's columns, its extra columns passed over, a host's port number is mlx5_<N-1>") {
  const std::string text =
      "A-Rack,A-U,A-Node Name,A-Type,A-Port,Z-Rack,Z-U,Z-Node Name,Z-Type,Z-Port\n"
      "316,22,c-csi-0329s,Host,1,R113,22,c-csi-mqm9700-0327,Switch,1\n"
      "316,22,c-csi-0329s,Host,2,R113,22,c-csi-mqm9700-0327,Switch,1/2\n";
  const CablePlan plan = parse_cable_list(text, "p2p.csv");
  REQUIRE(plan.cables.size() == 2);
  CHECK(plan.cables[0].a.device == "c-csi-0329s");
  CHECK(plan.cables[0].a.port == "mlx5_0");
  CHECK_FALSE(plan.cables[0].a.switch_end);
  CHECK(plan.cables[0].b.port == "1");
  CHECK(plan.cables[0].b.switch_end);
  CHECK(plan.cables[1].a.port == "mlx5_1");
  CHECK(plan.cables[1].b.port == "2");
}

TEST_CASE("cable list: what generate --format plan writes reads back to the same cables") {
  CablePlan plan;
  plan.cables = {{{"leaf01", "1", true}, {"dgx001", "mlx5_0", false}, 4, LinkSpeed::HDR, 0},
                 {{"spine01", "3", true}, {"leaf01", "17", true}, 0, LinkSpeed::Unknown, 0},
                 {{"leaf02", "5", true}, {"0xb83fd20300c00000", "port 1", false}, 4, LinkSpeed::NDR, 0},
                 {{"leaf02", "6", true}, {"gpu,7", "mlx5_0/2", false}, 1, LinkSpeed::EDR, 0}};
  const std::string text = cable_list_text(plan, "test");
  CHECK(text.starts_with("# test\na_device,a_type,a_port,b_device,b_type,b_port,width,speed\n"));
  const CablePlan back = parse_cable_list(text, "back.csv");
  REQUIRE(back.cables.size() == plan.cables.size());
  for (size_t i = 0; i < plan.cables.size(); ++i) {
    CAPTURE(i);
    CHECK(back.cables[i].a.device == plan.cables[i].a.device);
    CHECK(back.cables[i].a.port == plan.cables[i].a.port);
    CHECK(back.cables[i].a.switch_end == plan.cables[i].a.switch_end);
    CHECK(back.cables[i].b.device == plan.cables[i].b.device);
    CHECK(back.cables[i].b.port == plan.cables[i].b.port);
    CHECK(back.cables[i].b.switch_end == plan.cables[i].b.switch_end);
    CHECK(back.cables[i].width == plan.cables[i].width);
    CHECK(back.cables[i].speed == plan.cables[i].speed);
    CHECK(back.cables[i].line == static_cast<int>(i) + 3);
  }
}

TEST_CASE("cable list: every bad line is named by file and line, with what was expected") {
  CHECK(error_of("device,port\nleaf01,1\n") ==
        "cables.csv:1: expected a header naming the columns a_device,a_port,b_device,b_port (and optionally a_type, "
        "b_type, width, speed), found \"device,port\"");
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,1,dgx001\n") == "cables.csv:2: expected 4 cells as the header has, found 3");
  CHECK(error_of("a_device,a_port,b_device,b_port\n,1,dgx001,mlx5_0\n") ==
        "cables.csv:2: expected the first end's device, found an empty cell");
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,1,dgx001,mlx 5\n") ==
        "cables.csv:2: expected the second end's port: a switch port (17, P17, 1/2) or an HCA (mlx5_0, mlx5_0/2, HCA-1), "
        "found \"mlx 5\"");
  CHECK(error_of("a_device,a_type,a_port,b_device,b_port\nleaf01,switch,mlx5_0,dgx001,mlx5_0\n") ==
        "cables.csv:2: expected the first end's port: a switch port (17, P17, or 1/2 for a split cage), found \"mlx5_0\"");
  CHECK(error_of("a_device,a_type,a_port,b_device,b_port\nleaf01,router,1,dgx001,mlx5_0\n") ==
        "cables.csv:2: expected a device type switch or host, found \"router\"");
  CHECK(error_of("a_device,a_port,b_device,b_port,width\nleaf01,1,dgx001,mlx5_0,3x\n") ==
        "cables.csv:2: expected a width 1x, 2x, 4x, 8x or 12x, found \"3x\"");
  CHECK(error_of("a_device,a_port,b_device,b_port,speed\nleaf01,1,dgx001,mlx5_0,400G\n") ==
        "cables.csv:2: expected a speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR, found \"400G\"");
  CHECK(error_of("a_device,a_port,b_device,b_port\n\"leaf01,1,dgx001,mlx5_0\n") ==
        "cables.csv:2: expected the closing '\"' of a quoted cell (line cut off?)");
  CHECK(error_of("a_device,a_port,a_device,b_port\n") ==
        "cables.csv:1: expected each column once in the header, but \"a_device\" is there twice");
  CHECK(error_of("# only a comment\n") ==
        "cables.csv: expected a cable list with a header naming a_device,a_port,b_device,b_port, found no lines");
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,0,dgx001,mlx5_0\n").starts_with("cables.csv:2: expected the first end's port"));
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,256,dgx001,mlx5_0\n").starts_with("cables.csv:2: expected the first end's port"));
}

TEST_CASE("cable list: recognised by a comma on its first line, never JSON or a dump") {
  CHECK(looks_like_cable_list("\n# plan\na,b,c,d\n"));
  CHECK_FALSE(looks_like_cable_list("{\"fabrics\": [1,2]}"));
  CHECK_FALSE(looks_like_cable_list("#\n# Topology file: generated on ...\nvendid=0x2c9\n"));
  CHECK_FALSE(looks_like_cable_list(""));
}

TEST_CASE("cable list: a device is a switch or a host throughout, so a port that reads as the other kind is named") {
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,1,dgx001,mlx5_0\nleaf01,seventeen,dgx002,mlx5_0\n") ==
        "cables.csv:3: expected leaf01's port as a switch port (17, P17, 1/2), as on line 2, found \"seventeen\"");
  CHECK(error_of("a_device,a_port,b_device,b_port\nleaf01,1,dgx001,mlx5_0\nleaf02,1,dgx001,2\n") ==
        "cables.csv:3: expected dgx001's port as a host's HCA (mlx5_0, HCA-1), as on line 2, found \"2\"");
}
