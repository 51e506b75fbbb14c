// `slurmtopo emit gres` (gres.conf) and `slurmtopo emit nodes` (slurm.conf NodeName lines):
// both from the same node classes and the same plan, so the two files always agree.
// Options → emit_gres (emit/gres_emit.h) → report_emit_gres. `emit nccl-topo` (NCCL's topology
// XML from the same node files): options → emit_nccl_topo → report_emit_nccl_topo.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_status.h"
#include "emit/emit.h"
#include "report/report.h"

namespace slurmtopo::cli {

namespace {

std::string command_line(const EmitGresRequest& r, const std::string& slurm_version) {
  std::string s = std::string("slurmtopo emit ") + (r.what == GresOutput::Gres ? "gres" : "nodes");
  if (!r.sources.nodes_dir.empty()) s += " --nodes-dir " + r.sources.nodes_dir;
  for (const auto& c : r.sources.node_classes) s += " --node-class '" + c + "'";
  if (!r.nodes.empty()) s += " --nodes '" + r.nodes + "'";
  if (!slurm_version.empty()) s += " --slurm-version " + slurm_version;
  if (!r.dev_dir.empty()) s += " --dev-dir " + r.dev_dir;
  for (const auto& p : r.partition_topology) s += " --partition-topology " + p;
  return s;
}

void add_one(CLI::App& emit, GresOutput what) {
  struct Options {
    EmitGresRequest request;
    NodeInputs nodes;
    std::string slurm_version;
  };
  auto o = std::make_shared<Options>();
  EmitGresRequest& r = o->request;
  r.what = what;
  CLI::App* cmd = what == GresOutput::Gres
                      ? emit.add_subcommand("gres", "gres.conf: one line per GPU per node class, checked as slurmd checks it")
                      : emit.add_subcommand("nodes", "slurm.conf NodeName= lines (and GresTypes=gpu, NCCL_IB_HCA per class)");
  cmd->footer(
      exit_status_text(what == GresOutput::Gres ? "written (or printed); with --check: the file matches the nodes"
                                                : "written (or printed)",
                       what == GresOutput::Gres
                           ? "bad input, a file slurmd would refuse, --check found errors, or nodes missing "
                             "(without --allow-missing): nothing written"
                           : "bad input, or nodes missing (without --allow-missing): nothing written") +
      "\n" +
      (what == GresOutput::Gres
           ? examples_text({{"slurmtopo emit gres --nodes-dir nodes/ --fabric fabric.topo -o /etc/slurm/gres.conf",
                             "one line per GPU per node class, with Cores= and Links="},
                            {"slurmtopo emit gres --nodes-dir nodes/ --check /etc/slurm/gres.conf",
                             "check the file in service against the nodes"}})
           : examples_text({{"slurmtopo emit nodes --nodes-dir nodes/ -o /etc/slurm/nodes.conf",
                             "NodeName= lines for slurm.conf to Include"}})));
  add_node_options(*cmd, o->nodes);
  add_fabric_options(*cmd, r.fabric, FabricOption::Optional);
  add_slurm_version_option(*cmd, o->slurm_version, "gres.conf's Cores= rule (24.11+: whole sockets)");
  add_dev_dir_option(*cmd, r.dev_dir);
  add_output_option(*cmd, r.output, "write here (atomically, keeping .bak)");
  add_allow_missing_option(*cmd, r.force,
                           "write even if a --nodes host has no file, or the file drops more than 5 % of the current "
                           "file's nodes");
  if (what == GresOutput::Nodes)
    cmd->add_option("--partition-topology", r.partition_topology,
                    "PARTITION=TOPOLOGY: a PartitionName line choosing a topology.yaml topology (25.05+; repeatable)");
  if (what == GresOutput::Gres)
    cmd->add_option("--check", r.check, "check this existing gres.conf against the nodes instead of emitting")
        ->check(CLI::ExistingFile);
  cmd->callback([o] {
    o->request.sources = o->nodes.sources;
    o->request.nodes = o->nodes.nodes;
    o->request.command = command_line(o->request, o->slurm_version);
    o->request.release = resolve_release(o->slurm_version);
    const EmitGresResult result = emit_gres(o->request);
    report_emit_gres(result, std::cout, std::cerr);
    if (result.exit_code()) throw Exit{result.exit_code()};
  });
}

}  // namespace

// `slurmtopo emit nccl-topo --nodes-dir DIR -o DIR`: NCCL_TOPO_FILE per node class.
void add_nccl_topo(CLI::App& emit) {
  struct Options {
    EmitNcclTopoRequest request;
    NodeInputs nodes;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = emit.add_subcommand("nccl-topo", "NCCL's topology XML per node class, for NCCL_TOPO_FILE where a VM hides the PCI tree");
  cmd->footer(plain_exit_status() + "\n" +
              examples_text({{"slurmtopo emit nccl-topo --nodes-dir nodes/ -o nccl/",
                              "nccl/<first host>.xml per node class, for NCCL_TOPO_FILE"}}));
  add_node_options(*cmd, o->nodes);
  add_output_dir_option(*cmd, o->request.out_dir, "<first host>.xml per class (atomically)");
  cmd->callback([o] {
    o->request.sources = o->nodes.sources;
    o->request.nodes = o->nodes.nodes;
    std::string c = "slurmtopo emit nccl-topo";
    if (!o->request.sources.nodes_dir.empty()) c += " --nodes-dir " + o->request.sources.nodes_dir;
    for (const auto& nc : o->request.sources.node_classes) c += " --node-class '" + nc + "'";
    o->request.command = c + " -o " + o->request.out_dir;
    const EmitNcclTopoResult result = emit_nccl_topo(o->request);
    report_emit_nccl_topo(result, std::cout, std::cerr);
    if (result.exit_code()) throw Exit{result.exit_code()};
  });
}

void add_emit_gres_commands(CLI::App& emit) {
  add_one(emit, GresOutput::Gres);
  add_one(emit, GresOutput::Nodes);
  add_nccl_topo(emit);
}

}  // namespace slurmtopo::cli
