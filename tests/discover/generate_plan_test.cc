#include "discover/generate_plan.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

namespace {

RailOptimizedSpec two_planes_of(LinkSpeed speed) {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  spec.speed = speed;
  return spec;
}

std::vector<std::string> paths(const GeneratePlan& plan) {
  std::vector<std::string> out;
  for (const auto& f : plan.files) out.push_back(f.path);
  return out;
}

}  // namespace

TEST_CASE("generate plan: up to HDR, each plane's dump and then its ibsim net file") {
  const RailOptimizedSpec spec = two_planes_of(LinkSpeed::HDR);
  const GeneratePlan plan = plan_rail_plane_files(split_rail_planes(generate_rail_optimized(spec), spec, 2), "out/rail");
  CHECK(paths(plan) ==
        std::vector<std::string>{"out/rail-plane1.topo", "out/rail-plane1.net", "out/rail-plane2.topo", "out/rail-plane2.net"});
  CHECK(plan.notes.empty());
  CHECK(plan.files[0].text.find("dgx001 mlx5_1") != std::string::npos);
  CHECK(plan.files[1].text.find("dgx001 mlx5_1") != std::string::npos);
  CHECK(plan.files[2].text.find("dgx001 mlx5_1") == std::string::npos);
}

TEST_CASE("generate plan: at NDR the dumps only, and a note that names why the net files are missing") {
  const RailOptimizedSpec spec = two_planes_of(LinkSpeed::NDR);
  const GeneratePlan plan = plan_rail_plane_files(split_rail_planes(generate_rail_optimized(spec), spec, 2), "rail");
  CHECK(paths(plan) == std::vector<std::string>{"rail-plane1.topo", "rail-plane2.topo"});
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].find("NDR, which ibsim 0.10 cannot emulate") != std::string::npos);
}

TEST_CASE("generate plan: planes need -o NAME, and ibsim at NDR names --format") {
  const RailOptimizedSpec spec = two_planes_of(LinkSpeed::NDR);
  const Fabric fabric = generate_rail_optimized(spec);
  CHECK_THROWS_WITH_AS(plan_rail_plane_files(split_rail_planes(fabric, spec, 2), "-"), doctest::Contains("--planes: expected -o NAME"),
                       InputError);
  CHECK_THROWS_WITH_AS(plan_generated_fabric(fabric, GeneratedFormat::Ibsim, "f.net"), doctest::Contains("--format: ibsim: "),
                       InputError);
  const GeneratePlan dump = plan_generated_fabric(fabric, GeneratedFormat::Ibnetdiscover, "-");
  REQUIRE(dump.files.size() == 1);
  CHECK(dump.files[0].path == "-");
  CHECK(dump.files[0].text.find("Switch\t") != std::string::npos);
}
