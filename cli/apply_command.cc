// `slurmtopo apply`: options → apply (emit/apply_plan.h) → report_apply, and the textfile.
#include <chrono>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "emit/emit.h"
#include "report/report.h"

namespace slurmtopo::cli {

namespace {

// What --what nodes does, before the exit codes.
constexpr const char* kWhatNodes =
    "--what nodes replaces the file slurm.conf Includes for its NodeName lines (e.g. `Include\n"
    "/etc/slurm/nodes.conf`); NodeName lines inline in slurm.conf are refused (move them to such a\n"
    "file first). It changes the attributes of the nodes the running slurmctld has (CPUs, Sockets,\n"
    "CoresPerSocket, ThreadsPerCore, RealMemory, Gres), keeps every other attribute (NodeAddr,\n"
    "Port, Weight, Feature, ...) and refuses to add or remove nodes or change a node's CPU count:\n"
    "Slurm needs slurmctld and every slurmd restarted for those, which apply does not do.\n";

struct ApplyOptions {
  ApplyRequest request;
  NodeInputs nodes;
  std::vector<std::string> what{"topology"};
  bool json = false;
  std::string textfile;
  std::string slurm_version;
};

std::string command_line(const ApplyOptions& o) {
  std::string s = "slurmtopo apply";
  for (const auto& f : o.request.inputs.fabric_files) s += " --fabric " + f;
  if (!o.request.inputs.name_map.empty()) s += " --node-name-map " + o.request.inputs.name_map;
  if (!o.request.inputs.site_config.empty()) s += " --config " + o.request.inputs.site_config;
  s += " --slurm-conf " + o.request.slurm_conf;
  if (!o.request.dev_dir.empty()) s += " --dev-dir " + o.request.dev_dir;
  if (!o.slurm_version.empty()) s += " --slurm-version " + o.slurm_version;
  return s;
}

}  // namespace

void add_apply_command(CLI::App& app) {
  auto o = std::make_shared<ApplyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "apply", "Emit, check against the running slurmctld, replace, scontrol reconfigure, verify; roll back on failure");
  cmd->footer(std::string(kWhatNodes) + "\n" +
              exit_status_text("nothing to do, or applied (written, reconfigured, verified); --dry-run: no error",
                               "bad input, or a file Slurm or the running cluster would not take (nothing changed)",
                               {{exit_code::kAttention,
                                 "the apply failed after writing and was rolled back (previous files, reconfigured)"},
                                {exit_code::kFails, "more anomalies in the fabric than --max-anomalies (nothing changed)"}}) +
              "\n" +
              examples_text({{"slurmtopo apply --fabric fabric.topo --slurm-conf /etc/slurm/slurm.conf --dry-run",
                              "check and show the change, touch nothing"},
                             {"slurmtopo apply --fabric fabric.topo --what topology,gres --nodes-dir nodes/",
                              "write, reconfigure, verify; roll back on failure"}}));
  add_fabric_options(*cmd, o->request.inputs, FabricOption::Required);
  add_slurm_conf_option(*cmd, o->request.slurm_conf, "the cluster's nodes, and the directory the files are replaced in")
      ->capture_default_str();
  cmd->add_option("--what", o->what,
                  "files to apply: topology, gres, nodes (gres and nodes need --nodes-dir or --node-class)")
      ->delimiter(',')
      ->transform(one_of({"topology", "gres", "nodes"}, true))
      ->capture_default_str();
  add_node_options(*cmd, o->nodes);
  add_slurm_version_option(*cmd, o->slurm_version, "gres.conf's Cores= rule (24.11+: whole sockets)");
  add_dev_dir_option(*cmd, o->request.dev_dir);
  add_dry_run_option(*cmd, o->request.dry_run,
                     "check and show the change; write nothing, reconfigure nothing (without a running "
                     "slurmctld, its checks are skipped and the warning says so)");
  add_json_flag(*cmd, o->json, "one object: result, exit code, files and their diff, anomalies, steps");
  cmd->add_option("--textfile", o->textfile,
                  "DIR of node_exporter's textfile collector: write DIR/slurmtopo.prom there (the fabric's anomalies, "
                  "the apply's result)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--max-anomalies", o->request.max_anomalies,
                  "exit 4, changing nothing, when the fabric has more anomalies than this (default: no limit)")
      ->check(whole_number(0));
  cmd->add_option("--verify-timeout", o->request.verify_seconds, "seconds slurmctld may take to answer after reconfigure")
      ->check(whole_number(1, 3600))
      ->capture_default_str();
  cmd->callback([o] {
    ApplyRequest& r = o->request;
    r.topology = r.gres = r.nodes = false;
    for (const auto& w : o->what) (w == "gres" ? r.gres : w == "nodes" ? r.nodes : r.topology) = true;
    r.node_sources = o->nodes.sources;
    r.command = command_line(*o);
    r.release = resolve_release(o->slurm_version);
    const ApplyResult result = apply(r, *make_scontrol(r.slurm_conf));
    report_apply(result, o->json, std::cout, std::cerr);
    if (!o->textfile.empty())
      write_apply_textfile(o->textfile, result,
                           std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch()).count());
    if (result.exit_code()) throw Exit{result.exit_code()};
  });
}

}  // namespace slurmtopo::cli
