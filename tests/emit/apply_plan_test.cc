// apply with a fake slurmctld: unchanged → nothing, changed → write + reconfigure + verify,
// a failing verification → the previous file back and a second reconfigure, a node slurmctld
// does not know → refused before anything is written, too many anomalies → exit 1.
#include "emit/apply_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/synthetic_fabric.h"
#include "slurm/gres_conf.h"

using namespace slurmtopo;
namespace fs = std::filesystem;

namespace {

struct FakeSlurm final : SlurmControl {
  std::vector<std::string> nodes;
  std::vector<std::string> switches;  // what `show topology` answers after a reconfigure
  bool alive = true, dies_on_reconfigure = false;
  int reconfigures = 0;
  std::optional<std::vector<std::string>> node_names() override {
    if (!alive) return std::nullopt;
    return nodes;
  }
  std::string reconfigure() override {
    ++reconfigures;
    if (dies_on_reconfigure && reconfigures == 1) alive = false;
    else alive = true;  // the rollback's reconfigure (slurmctld restarted by systemd)
    return alive ? "" : "Unable to contact slurm controller";
  }
  bool ping() override { return alive; }
  std::optional<std::vector<std::string>> switch_names() override { return switches; }
};

struct Cluster_ {
  fs::path dir;
  Cluster_() {
    char t[] = "/tmp/slurmtopo-apply-XXXXXX";
    dir = mkdtemp(t);
  }
  ~Cluster_() { fs::remove_all(dir); }
  std::string path(const std::string& n) const { return (dir / n).string(); }
};

const std::string kSamples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples";

// The 64 hosts of the sample fat tree, all in slurm.conf and known to slurmctld.
ApplyRequest request(const Cluster_& c, FakeSlurm& slurm) {
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nNodeName=cn[001-064] CPUs=8\n";
  for (int i = 1; i <= 64; ++i) slurm.nodes.push_back((i < 10 ? "cn00" : "cn0") + std::to_string(i));
  ApplyRequest r;
  r.inputs.fabric_files = {kSamples + "/fattree-2level.topo"};
  r.slurm_conf = c.path("slurm.conf");
  r.verify_seconds = 1;
  return r;
}

std::string read(const std::string& p) {
  std::string s;
  read_file_if_exists(p, s);
  return s;
}

// A slurmctld that shows the switches of the topology.conf in place once reconfigured.
struct Echo final : SlurmControl {
  FakeSlurm& base;
  std::string file;
  int reconfigures = 0;
  Echo(FakeSlurm& b, std::string f) : base(b), file(std::move(f)) {}
  std::optional<std::vector<std::string>> node_names() override { return base.nodes; }
  std::string reconfigure() override {
    ++reconfigures;
    return "";
  }
  bool ping() override { return true; }
  std::optional<std::vector<std::string>> switch_names() override { return scontrol_values(read(file), "SwitchName"); }
  std::optional<std::string> show_topology() override { return read(file); }
};

// A slurmctld whose reconfigure leaves the topology it read first in place (25.11 before
// 25.11.3 with power saving on): same switch names, old members.
struct Stale final : SlurmControl {
  FakeSlurm& base;
  std::string held;
  Stale(FakeSlurm& b, std::string topology) : base(b), held(std::move(topology)) {}
  std::optional<std::vector<std::string>> node_names() override { return base.nodes; }
  std::string reconfigure() override { return ""; }
  bool ping() override { return true; }
  std::optional<std::vector<std::string>> switch_names() override { return scontrol_values(held, "SwitchName"); }
  std::optional<std::string> show_topology() override { return held; }
};

}  // namespace

TEST_CASE("apply: a new topology.conf is written, reconfigured and verified — the same input again does nothing") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  Echo echo(slurm, c.path("topology.conf"));

  ApplyRequest dry = r;
  dry.dry_run = true;
  const ApplyResult d = apply(dry, echo);
  CHECK(d.outcome == ApplyOutcome::DryRun);
  CHECK(d.exit_code() == 0);
  REQUIRE(d.files.size() == 1);
  CHECK(d.files[0].changed);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));
  CHECK(echo.reconfigures == 0);

  const ApplyResult applied = apply(r, echo);
  CHECK(applied.outcome == ApplyOutcome::Applied);
  CHECK(applied.exit_code() == 0);
  CHECK(echo.reconfigures == 1);
  CHECK(read(c.path("topology.conf")).find("SwitchName=") != std::string::npos);
  CHECK(applied.out_of_topology.empty());
  CHECK_FALSE(fs::exists(c.path(".slurmtopo-apply.pending")));

  const ApplyResult again = apply(r, echo);
  CHECK(again.outcome == ApplyOutcome::Unchanged);
  CHECK(echo.reconfigures == 1);  // no churn
}

TEST_CASE("apply --dry-run without a running slurmctld: shows the change, says which checks it skipped") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  slurm.alive = false;  // a new cluster: slurm.conf written, slurmctld not started yet
  r.dry_run = true;
  const ApplyResult d = apply(r, slurm);
  CHECK(d.outcome == ApplyOutcome::DryRun);
  CHECK(d.exit_code() == 0);
  REQUIRE(d.files.size() == 1);
  CHECK(d.files[0].changed);
  CHECK_FALSE(d.files[0].diff.empty());
  REQUIRE(d.warnings.size() == 1);
  CHECK(d.warnings[0].find("skipped the checks against the running controller") != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));
  CHECK(slurm.reconfigures == 0);

  // The same without --dry-run is refused: a real apply never writes past a dead controller.
  r.dry_run = false;
  const ApplyResult real = apply(r, slurm);
  CHECK(real.outcome == ApplyOutcome::Refused);
  CHECK(real.exit_code() == 2);
  CHECK(real.reason.find("does not answer") != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));

  // With the controller up, a dry run makes the checks: a node it does not know is refused.
  slurm.alive = true;
  slurm.nodes.pop_back();
  r.dry_run = true;
  const ApplyResult checked = apply(r, slurm);
  CHECK(checked.outcome == ApplyOutcome::Refused);
  CHECK(checked.reason.find("cn064") != std::string::npos);
  CHECK(checked.warnings.empty());
}

TEST_CASE("apply: slurmctld does not show the new switches → previous state back, exit 3") {
  Cluster_ c;
  FakeSlurm slurm;  // shows no switch at all
  ApplyRequest r = request(c, slurm);
  const ApplyResult res = apply(r, slurm);
  CHECK(res.outcome == ApplyOutcome::RolledBack);
  CHECK(res.exit_code() == 3);
  CHECK(res.reason.find("lacks") != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));  // there was none before
  CHECK(slurm.reconfigures == 2);
}

TEST_CASE("apply: an apply killed after writing is finished by the next one, even though the file is unchanged") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  Echo echo(slurm, c.path("topology.conf"));
  REQUIRE(apply(r, echo).outcome == ApplyOutcome::Applied);
  std::ofstream(c.path(".slurmtopo-apply.pending")) << c.path("topology.conf") << "\n";
  const ApplyResult res = apply(r, echo);
  CHECK(res.outcome == ApplyOutcome::Applied);
  CHECK(echo.reconfigures == 2);
  CHECK_FALSE(fs::exists(c.path(".slurmtopo-apply.pending")));
}

TEST_CASE("apply: slurmctld dies on reconfigure → previous topology.conf back, reconfigured again, exit 3") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  const std::string previous = "SwitchName=old Nodes=cn[001-064]\n";
  std::ofstream(c.path("topology.conf")) << previous;
  slurm.dies_on_reconfigure = true;
  const ApplyResult res = apply(r, slurm);
  CHECK(res.outcome == ApplyOutcome::RolledBack);
  CHECK(res.exit_code() == 3);
  CHECK(read(c.path("topology.conf")) == previous);
  CHECK(slurm.reconfigures == 2);
  CHECK_FALSE(fs::exists(c.path(".slurmtopo-apply.pending")));
}

TEST_CASE("apply: a node slurmctld does not know → refused, nothing written, no reconfigure (exit 2)") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  slurm.nodes.pop_back();  // slurm.conf has cn064, the running slurmctld not yet
  const ApplyResult res = apply(r, slurm);
  CHECK(res.outcome == ApplyOutcome::Refused);
  CHECK(res.exit_code() == 2);
  CHECK(res.reason.find("cn064") != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));
  CHECK(slurm.reconfigures == 0);
}

TEST_CASE("apply: more anomalies than --max-anomalies → exit 1, nothing changed — at the threshold it applies") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  // A generated fat tree with one cable trained at 1x and one missing.
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.host_prefix = "cn";
  Fabric fabric = generate_fattree(spec);
  apply_faults(fabric, parse_faults({"leaf003,spine02"}, {"leaf002,spine01,1x"}));
  {
    std::ofstream out(c.path("faulty.topo"));
    write_ibnetdiscover_text(fabric, out);
  }
  r.inputs.fabric_files = {c.path("faulty.topo")};
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nNodeName=cn[001-032] CPUs=8\n";
  slurm.nodes.resize(32);
  Echo echo(slurm, c.path("topology.conf"));

  r.max_anomalies = 1;
  const ApplyResult over = apply(r, echo);
  CHECK(over.total_anomalies() >= 2);
  CHECK(over.degraded_links >= 1);
  CHECK(over.outcome == ApplyOutcome::Anomalies);
  CHECK(over.exit_code() == 4);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));
  CHECK(echo.reconfigures == 0);

  r.max_anomalies = over.total_anomalies();
  const ApplyResult at = apply(r, echo);
  CHECK(at.outcome == ApplyOutcome::Applied);
  CHECK(echo.reconfigures == 1);
}

TEST_CASE("apply --what gres: gres.conf beside slurm.conf, written, reconfigured — again: nothing") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  r.topology = false;
  r.gres = true;
  r.node_sources.nodes_dir = kSamples + "/nodes";
  Echo echo(slurm, c.path("topology.conf"));
  const ApplyResult res = apply(r, echo);
  REQUIRE(res.files.size() == 1);
  CHECK(res.files[0].what == "gres.conf");
  CHECK(res.outcome == ApplyOutcome::Applied);
  CHECK(read(c.path("gres.conf")).find("Name=gpu") != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("topology.conf")));
  CHECK(apply(r, echo).outcome == ApplyOutcome::Unchanged);
  CHECK(echo.reconfigures == 1);
}

namespace {

// A slurmctld that, once reconfigured, shows the node attributes of the node file in place, as
// `scontrol show nodes --oneliner` does (CPUTot, Sockets, RealMemory, Gres).
struct NodeEcho final : SlurmControl {
  std::vector<std::string> nodes;
  std::string file;
  bool ignores_file = false;  // a slurmctld that keeps the old attributes
  int reconfigures = 0;
  std::string shown;
  std::optional<std::vector<std::string>> node_names() override { return nodes; }
  std::string reconfigure() override {
    ++reconfigures;
    if (!ignores_file) shown = render(read(file));
    return "";
  }
  bool ping() override { return true; }
  std::optional<std::vector<std::string>> switch_names() override { return std::vector<std::string>{}; }
  std::optional<std::string> show_nodes() override { return shown; }
  static std::string render(const std::string& text) {
    std::string out;
    for (const auto& l : parse_node_conf(text, "nodes.conf").lines)
      for (const auto& n : l.nodes) {
        out += "NodeName=" + n + " CPUTot=" + std::to_string(l.cpus) + " Sockets=" + std::to_string(l.sockets) +
               " RealMemory=" + std::to_string(l.real_memory) + " Gres=";
        for (size_t i = 0; i < l.gres.size(); ++i)
          out += (i ? "," : "") + l.gres[i].first + ":" + std::to_string(l.gres[i].second) + "(S:0-1)";
        out += "\n";
      }
    return out;
  }
};

// slurm.conf Includes nodes.conf, which has the 64 sample DGX hosts' CPUs but neither RealMemory
// nor GPUs, and their own NodeAddr; the running slurmctld has the same 64 nodes.
const std::string kOldLine = "NodeName=dgx[001-064] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 NodeAddr=10.0.0.1";

ApplyRequest nodes_request(const Cluster_& c, NodeEcho& slurm) {
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nGresTypes=gpu\nInclude nodes.conf\n";
  std::ofstream(c.path("nodes.conf")) << "NodeName=DEFAULT State=UNKNOWN\n" << kOldLine << "\n";
  for (int i = 1; i <= 64; ++i) slurm.nodes.push_back((i < 10 ? "dgx00" : "dgx0") + std::to_string(i));
  slurm.file = c.path("nodes.conf");
  slurm.shown = NodeEcho::render(read(slurm.file));
  ApplyRequest r;
  r.slurm_conf = c.path("slurm.conf");
  r.topology = false;
  r.nodes = true;
  r.node_sources.nodes_dir = kSamples + "/nodes";
  r.verify_seconds = 1;
  return r;
}

}  // namespace

TEST_CASE("apply --what nodes: the included node file gets the hardware, keeps NodeAddr, is verified — again: nothing") {
  Cluster_ c;
  NodeEcho slurm;
  const ApplyRequest r = nodes_request(c, slurm);
  const std::string before = read(c.path("nodes.conf"));
  const ApplyResult res = apply(r, slurm);
  CHECK(res.outcome == ApplyOutcome::Applied);
  REQUIRE(res.files.size() == 1);
  CHECK(res.files[0].what == "node lines");
  CHECK(fs::equivalent(res.files[0].path, c.path("nodes.conf")));
  const std::string after = read(c.path("nodes.conf"));
  CHECK(after.find("NodeName=dgx[001-064] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2") != std::string::npos);
  CHECK(after.find("Gres=gpu:h100:8 State=UNKNOWN NodeAddr=10.0.0.1\n") != std::string::npos);
  CHECK(after.find("GresTypes") == std::string::npos);
  CHECK(read(c.path("nodes.conf.bak")) == before);
  CHECK(slurm.reconfigures == 1);
  CHECK(std::find(res.files[0].diff.begin(), res.files[0].diff.end(),
                  "- " + kOldLine) != res.files[0].diff.end());

  CHECK(apply(r, slurm).outcome == ApplyOutcome::Unchanged);
  CHECK(slurm.reconfigures == 1);  // no churn
}

TEST_CASE("apply --what nodes: slurmctld does not show the new attributes → previous file back, exit 3") {
  Cluster_ c;
  NodeEcho slurm;
  const ApplyRequest r = nodes_request(c, slurm);
  const std::string before = read(c.path("nodes.conf"));
  slurm.ignores_file = true;
  const ApplyResult res = apply(r, slurm);
  CHECK(res.outcome == ApplyOutcome::RolledBack);
  CHECK(res.exit_code() == 3);
  CHECK(res.reason.find("RealMemory=0, the file 2042880") != std::string::npos);
  CHECK(read(c.path("nodes.conf")) == before);
  CHECK(slurm.reconfigures == 2);
}

TEST_CASE("apply --what nodes: a node added or removed, inline NodeName lines, no GresTypes → refused, nothing written") {
  Cluster_ c;
  NodeEcho slurm;
  ApplyRequest r = nodes_request(c, slurm);
  const std::string before = read(c.path("nodes.conf"));
  auto refused = [&](const char* what) {
    const ApplyResult res = apply(r, slurm);
    CHECK(res.outcome == ApplyOutcome::Refused);
    CHECK(res.exit_code() == 2);
    CHECK(res.reason.find(what) != std::string::npos);
    CHECK(read(c.path("nodes.conf")) == before);
    CHECK(slurm.reconfigures == 0);
  };
  slurm.nodes.push_back("dgx065");  // slurmctld has a node no node file describes
  refused("would remove 1 node the running slurmctld has (dgx065");
  slurm.nodes.pop_back();
  slurm.nodes.pop_back();  // the node files describe a node slurmctld does not have yet
  refused("would add 1 node the running slurmctld does not have (dgx064)");
  slurm.nodes.push_back("dgx064");
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nInclude nodes.conf\n";
  refused("no GresTypes=gpu");
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nGresTypes=gpu\nNodeName=dgx[001-064] CPUs=8\n";
  refused("inline");
  // A CPU count change: a real 22.05 slurmctld refuses it on a reconfigure (needs a restart).
  std::ofstream(c.path("slurm.conf")) << "ClusterName=t\nGresTypes=gpu\nInclude nodes.conf\n";
  slurm.shown = NodeEcho::render("NodeName=dgx[001-064] CPUs=8\n");
  refused("change the CPU count of 64 nodes (dgx[001-064]; dgx001: CPUs 8 -> 224)");
}

TEST_CASE("apply: a reconfigure that keeps the old members under the same switches is rolled back") {
  Cluster_ c;
  FakeSlurm slurm;
  ApplyRequest r = request(c, slurm);
  r.release.release = SlurmRelease{25, 11};
  Echo echo(slurm, c.path("topology.conf"));
  REQUIRE(apply(r, echo).outcome == ApplyOutcome::Applied);
  // The file in place (and in slurmctld) before a re-cabling: cn008 and cn009 swapped leaves.
  std::string old = read(c.path("topology.conf"));
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"Nodes=cn[001-008]", "Nodes=cn[001-007,009]"},
                                 {"Nodes=cn[009-016]", "Nodes=cn[008,010-016]"}}) {
    const size_t at = old.find(from);
    REQUIRE(at != std::string::npos);
    old.replace(at, from.size(), to);
  }
  std::ofstream(c.path("topology.conf")) << old;
  // The switch names are the same before and after: only the members tell that slurmctld
  // kept the old file.
  Stale stale(slurm, old);
  const ApplyResult out = apply(r, stale);
  CHECK(out.outcome == ApplyOutcome::RolledBack);
  CHECK(out.reason.find("slurmctld does not hold the topology.conf written: leaf001: slurmctld shows nodes "
                        "cn[001-007,009], topology.conf gives cn[001-008]") != std::string::npos);
  CHECK(out.reason.find("25.11.3") != std::string::npos);
  CHECK(read(c.path("topology.conf")) == old);  // the previous file is back
  // A slurmctld that reads what is written: applied, and the step says members were checked.
  const ApplyResult ok = apply(r, echo);
  CHECK(ok.outcome == ApplyOutcome::Applied);
  bool said = false;
  for (const auto& step : ok.steps) said |= step.find("with the nodes and children written") != std::string::npos;
  CHECK(said);
}

TEST_CASE("apply: topology_mismatch names the first switch that differs, the admin's way") {
  const std::string text = "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\nSwitchName=top Switches=l[1-2]\n";
  const ParsedTopology written = parse_topology_conf(text, "topology.conf");
  // As scontrol prints it: an upper switch lists every node below it.
  CHECK(topology_mismatch("SwitchName=l1 Level=0 LinkSpeed=1 Nodes=n[1-2]\n"
                          "SwitchName=l2 Level=0 LinkSpeed=1 Nodes=n[3-4]\n"
                          "SwitchName=top Level=1 LinkSpeed=1 Nodes=n[1-4] Switches=l[1-2]\n",
                          written) == "");
  CHECK(topology_mismatch("SwitchName=l1 Nodes=n[1-2,4]\nSwitchName=l2 Nodes=n3\nSwitchName=top Switches=l[1-2]\n", written) ==
        "l1: slurmctld shows nodes n[1-2,4], topology.conf gives n[1-2]");
  CHECK(topology_mismatch("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n", written) ==
        "top: in topology.conf, not shown by slurmctld");
  CHECK(topology_mismatch(text + "SwitchName=old Nodes=n9\n", written) == "old: shown by slurmctld, no longer in topology.conf");
  CHECK(topology_mismatch("SwitchName=l1 Nodes=n[1-2] Switches=(null)\nSwitchName=l2 Nodes=n[3-4]\n"
                          "SwitchName=top Nodes=n[1-4] Switches=l1\n", written) ==
        "top: slurmctld shows child switches l1, topology.conf gives l[1-2]");
}
