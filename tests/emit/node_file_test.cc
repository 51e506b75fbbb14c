// The node-lines file apply --what nodes owns: found through slurm.conf's Include, refused
// inline; the attributes slurmtopo does not compute kept per node; additions and removals
// refused (they need a restart); what `scontrol show nodes` must show afterwards.
#include "emit/node_file.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "base/input_error.h"

using namespace slurmtopo;
namespace fs = std::filesystem;

namespace {

struct Dir {
  fs::path dir;
  Dir() {
    char t[] = "/tmp/slurmtopo-node-file-XXXXXX";
    dir = mkdtemp(t);
  }
  ~Dir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

std::string refusal_of(const std::string& slurm_conf) {
  try {
    owned_node_file(load_slurm_conf(slurm_conf), slurm_conf);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

NodeLine h100(const std::string& hostlist) {
  NodeLine l;
  l.hostlist = hostlist;
  l.cpus = 224, l.sockets = 2, l.cores_per_socket = 56, l.threads_per_core = 2;
  l.real_memory = 2000;
  l.gres = {{"h100", 8}};
  return l;
}

}  // namespace

TEST_CASE("owned_node_file: the file slurm.conf Includes for its NodeName lines") {
  Dir d;
  const std::string nodes = d.write("nodes.conf", "# nodes\nNodeName=gpu[001-002] CPUs=8\n");
  const std::string conf = d.write("slurm.conf", "ClusterName=t\nInclude nodes.conf\nPartitionName=p Nodes=ALL\n");
  CHECK(fs::equivalent(owned_node_file(load_slurm_conf(conf), conf), nodes));
}

TEST_CASE("owned_node_file: NodeName lines inline in slurm.conf are refused, saying how to move them") {
  Dir d;
  const std::string conf = d.write("slurm.conf", "ClusterName=t\nNodeName=gpu[001-002] CPUs=8\n");
  const std::string why = refusal_of(conf);
  CHECK(why.find(conf + ":2:") != std::string::npos);
  CHECK(why.find("inline") != std::string::npos);
  CHECK(why.find("Include " + (d.dir / "nodes.conf").string()) != std::string::npos);
}

TEST_CASE("owned_node_file: lines spread over two files, or a file with more than NodeName lines, are refused") {
  Dir d;
  d.write("a.conf", "NodeName=gpu001 CPUs=8\n");
  d.write("b.conf", "NodeName=gpu002 CPUs=8\n");
  const std::string two = d.write("two.conf", "Include a.conf\nInclude b.conf\n");
  CHECK(refusal_of(two).find("they are in 2") != std::string::npos);

  const std::string mixed = d.write("mixed.conf", "NodeName=gpu001 CPUs=8\nPartitionName=p Nodes=ALL\n");
  const std::string conf = d.write("slurm.conf", "Include mixed.conf\n");
  const std::string why = refusal_of(conf);
  CHECK(why.find(mixed + ":2:") != std::string::npos);
  CHECK(why.find("`PartitionName`") != std::string::npos);
}

TEST_CASE("kept_node_attributes: what slurmtopo does not compute, per node, with NodeName=DEFAULT applied") {
  const auto kept = kept_node_attributes(
      "NodeName=DEFAULT State=UNKNOWN Weight=5 CPUs=4\n"
      "NodeName=gpu[001-002] NodeAddr=127.0.0.1 CPUs=8 RealMemory=100 Gres=gpu:2 Weight=9 Reason=\"rack 4 cabled\"\n",
      "nodes.conf");
  REQUIRE(kept.size() == 2);
  CHECK(kept.at("gpu001") == "State=UNKNOWN NodeAddr=127.0.0.1 Weight=9 Reason=\"rack 4 cabled\"");
  CHECK(kept.at("gpu002") == kept.at("gpu001"));
}

TEST_CASE("with_kept_attributes + render: one line per group of alike nodes, slurmtopo's attributes first") {
  const auto lines = with_kept_attributes(
      {h100("gpu[001-003]")}, {{"gpu001", "Port=7001"}, {"gpu002", "Port=7002"}, {"gpu003", "Port=7001"}});
  NodeLinesHeader header{"t", "Slurm 22.05 (--slurm-version 22.05)"};
  header.gres_types = false;
  const std::string text = render_node_lines(lines, header);
  CHECK(text.find("GresTypes") == std::string::npos);
  CHECK(text.find("NodeName=gpu[001,003] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 RealMemory=2000 "
                  "Gres=gpu:h100:8 Port=7001\n") != std::string::npos);
  CHECK(text.find("NodeName=gpu002 CPUs=224") != std::string::npos);
  CHECK(text.find("# gpu[001-003]: 2 sockets") != std::string::npos);  // the class's comment, once

  const auto plain = with_kept_attributes({h100("gpu[001-003]")}, {});
  CHECK(render_node_lines(plain, header).find("NodeName=gpu[001-003] CPUs=224") != std::string::npos);
}

TEST_CASE("node_change_refusal: nodes added or removed need a restart — GPUs need GresTypes=gpu") {
  const std::vector<std::string> running{"gpu001", "gpu002"};
  CHECK_FALSE(node_change_refusal(running, {"gpu002", "gpu001"}, {"gpu"}, true));
  const auto added = node_change_refusal(running, {"gpu001", "gpu002", "gpu003"}, {"gpu"}, true);
  REQUIRE(added);
  CHECK(added->find("add 1 node") != std::string::npos);
  CHECK(added->find("gpu003") != std::string::npos);
  CHECK(added->find("restart") != std::string::npos);
  const auto removed = node_change_refusal(running, {"gpu001"}, {"gpu"}, true);
  REQUIRE(removed);
  CHECK(removed->find("remove 1 node") != std::string::npos);
  CHECK(removed->find("gpu002") != std::string::npos);
  const auto no_type = node_change_refusal(running, running, {}, true);
  REQUIRE(no_type);
  CHECK(no_type->find("GresTypes=gpu") != std::string::npos);
  CHECK_FALSE(node_change_refusal(running, running, {}, false));
}

TEST_CASE("cpu_change_refusal: a node whose CPU count slurmctld has differs needs a restart") {
  const std::vector<NodeLine> lines{h100("gpu[001-002]")};
  CHECK_FALSE(cpu_change_refusal(lines, "NodeName=gpu001 CPUTot=224\nNodeName=gpu002 CPUTot=224\n"));
  const auto why = cpu_change_refusal(lines, "NodeName=gpu001 CPUTot=224\nNodeName=gpu002 CPUTot=8\n");
  REQUIRE(why);
  CHECK(why->find("1 node (gpu002; gpu002: CPUs 8 -> 224)") != std::string::npos);
  CHECK(why->find("restart") != std::string::npos);
}

TEST_CASE("node_lines_mismatch: scontrol show nodes against the lines slurmctld should have read") {
  const std::vector<NodeLine> lines{h100("gpu[001-002]")};
  const std::string good =
      "NodeName=gpu001 Arch=x86_64 CoresPerSocket=56 CPUAlloc=0 CPUTot=224 Gres=gpu:h100:8(S:0-1) RealMemory=2000 Sockets=2\n"
      "NodeName=gpu002 CoresPerSocket=56 CPUTot=224 Gres=gpu:h100:8 RealMemory=2000 Sockets=2\n";
  CHECK(node_lines_mismatch(lines, good) == "");
  std::string old = good;
  old.replace(old.rfind("CPUTot=224"), 10, "CPUTot=8");
  CHECK(node_lines_mismatch(lines, old).find("gpu002 CPUTot=8") != std::string::npos);
  CHECK(node_lines_mismatch(lines, good.substr(0, good.find('\n') + 1)) == "`scontrol show nodes` lacks gpu002");
  std::string no_gres = good;
  no_gres.replace(no_gres.rfind("Gres=gpu:h100:8"), 15, "Gres=(null)    ");
  CHECK(node_lines_mismatch(lines, no_gres).find("gpu002 Gres=, the file gpu:h100:8") != std::string::npos);
}
