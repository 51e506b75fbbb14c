// slurm.conf NodeName lines: Slurm's line rules, Include, and errors that name file:line.
#include "slurm/slurm_conf.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/input_error.h"

using slurmtopo::InputError;
using slurmtopo::load_slurm_conf;
using Names = std::vector<std::string>;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(SLURMTOPO_SOURCE_DIR) / "tests/data/slurm_conf";

// A scratch directory for files whose errors the test checks line by line.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("slurmtopo-slurmconf-" + std::to_string(getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

InputError error_of(const std::string& path) {
  try {
    load_slurm_conf(path);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for " << path);
  return InputError("", 0, "");
}

}  // namespace

TEST_CASE("load_slurm_conf: NodeName lines, continuations, comments, includes") {
  const auto conf = load_slurm_conf((kData / "slurm.conf").string());
  CHECK(conf.nodes() == Names{"gpu001", "gpu002", "gpu003", "gpu004", "login1", "cpu1", "cpu2",
                              "cpu10", "rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02",
                              "dgx1", "dgx2", "a08-p1-dgx-04-c01", "a08-p1-dgx-04-c02"});
  REQUIRE(conf.node_lines.size() == 8);
  const auto& gpu = conf.node_lines[0];
  CHECK(gpu.line == 5);  // the first physical line of a continued line
  CHECK(gpu.text == "NodeName=gpu[001-004] Gres=gpu:h100:8     Sockets=2 CoresPerSocket=32");
  CHECK(conf.node_lines[1].names == Names{"login1"});       // keys are case-insensitive
  CHECK(conf.node_lines[2].names == Names{"cpu1", "cpu2", "cpu10"});  // quoted value
  CHECK(conf.node_lines[3].names == Names{"gpu002"});       // `\#` is not a comment
  CHECK(conf.node_lines[3].text == "NodeName=gpu002 Comment=listed\\#twice");
  CHECK(conf.node_lines[4].file == (kData / "nodes.d/a.conf").string());  // globs sorted
  CHECK(conf.node_lines[5].file == (kData / "nodes.d/b.conf").string());
  CHECK(conf.node_lines[6].file == (kData / "gpu.conf").string());
  CHECK(conf.node_lines[7].file == (kData / "sub/extra.conf").string());  // nested, relative
  CHECK(conf.node_lines[7].line == 1);
}

TEST_CASE("load_slurm_conf: a fragment with only NodeName lines") {
  const Scratch s;
  const auto conf = load_slurm_conf(s.write("nodes.conf", "NodeName=n[1-3]\r\n\nNodeName=n2\n"));
  CHECK(conf.nodes() == Names{"n1", "n2", "n3"});  // dedup keeps the first
  CHECK(conf.node_lines.size() == 2);
}

TEST_CASE("load_slurm_conf: ClusterName as slurmctld keeps it (lower case, last wins), none in a fragment") {
  const Scratch s;
  CHECK(load_slurm_conf(s.write("a.conf", "ClusterName = Eos  # the H100 cluster\nNodeName=n1\n")).cluster_name == "eos");
  CHECK(load_slurm_conf(s.write("b.conf", "ClusterName=first\nclustername=\"Second\"\nNodeName=n1\n")).cluster_name ==
        "second");
  CHECK(load_slurm_conf(s.write("c.conf", "NodeName=n1\n")).cluster_name.empty());
}

TEST_CASE("load_slurm_conf: a slurm.conf without NodeName lines is an error (it would limit topology.conf to nobody)") {
  const Scratch s;
  const std::string path = s.write("empty.conf", "ClusterName=x\nNodeName=DEFAULT CPUs=4\n");
  CHECK_THROWS_WITH_AS(load_slurm_conf(path),
                       (path + ": no NodeName lines (Include followed): expected the nodes Slurm knows, "
                               "e.g. `NodeName=gpu[001-064] ...`").c_str(),
                       InputError);
}

TEST_CASE("load_slurm_conf: bad lines name file, line and what was expected") {
  const Scratch s;
  SUBCASE("unparsable hostlist") {
    const std::string path = s.write("a.conf", "# nodes\nNodeName=gpu[010-001] CPUs=1\n");
    const InputError e = error_of(path);
    CHECK(e.file() == path);
    CHECK(e.line() == 2);
    CHECK(std::string(e.what()) ==
          path + ":2: expected `NodeName=<hostlist>`: hostlist `gpu[010-001]`: range "
                 "`010-001` runs backwards");
  }
  SUBCASE("hostlist error inside a continued line is reported at its first line") {
    const InputError e = error_of(s.write("b.conf", "NodeName=n[1-2 \\\n]x CPUs=2\n"));
    CHECK(e.line() == 1);
  }
  SUBCASE("empty NodeName") {
    CHECK(error_of(s.write("c.conf", "\n\nNodeName= CPUs=1\n")).line() == 3);
  }
  SUBCASE("unreadable Include, reported where it is included") {
    const std::string path = s.write("d.conf", "NodeName=n1\nInclude missing.conf\n");
    const InputError e = error_of(path);
    CHECK(e.file() == path);
    CHECK(e.line() == 2);
    CHECK(std::string(e.what()).find("missing.conf") != std::string::npos);
  }
  SUBCASE("error inside an included file names that file") {
    const std::string inner = s.write("inc/bad.conf", "\nNodeName=n[a-b]\n");
    const InputError e = error_of(s.write("e.conf", "Include inc/bad.conf\n"));
    CHECK(e.file() == inner);
    CHECK(e.line() == 2);
  }
  SUBCASE("Include without a path") {
    CHECK(error_of(s.write("f.conf", "Include   \n")).line() == 1);
  }
  SUBCASE("unreadable top-level file") {
    const InputError e = error_of((s.dir / "nope.conf").string());
    CHECK(e.line() == 0);
  }
}

TEST_CASE("load_slurm_conf: Include cycles are errors") {
  const InputError e = error_of((kData / "cycle/a.conf").string());
  CHECK(e.file() == (kData / "cycle/b.conf").string());
  CHECK(e.line() == 2);
  CHECK(std::string(e.what()).find("lead back to itself") != std::string::npos);
}

TEST_CASE("load_slurm_conf: a glob that matches nothing includes nothing") {
  const Scratch s;
  CHECK(load_slurm_conf(s.write("g.conf", "NodeName=n1\nInclude none.d/*.conf\n")).nodes() ==
        Names{"n1"});
}
