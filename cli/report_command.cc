// `slurmtopo report`: options → plan_commission (report/commission.h) → write_commission.
#include <ctime>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "report/report.h"

namespace slurmtopo::cli {

namespace {

std::string command_line(const CommissionRequest& r, const NodeInputs& n, const std::string& slurm_version) {
  std::string s = "slurmtopo report";
  for (const auto& f : r.inputs.fabric_files) s += " --fabric " + f;
  if (!r.inputs.name_map.empty()) s += " --node-name-map " + r.inputs.name_map;
  if (!r.inputs.site_config.empty()) s += " --config " + r.inputs.site_config;
  for (const auto& f : r.inputs.counter_files) s += " --counters " + f;
  for (const auto& f : r.inputs.plan_files) s += " --plan " + f;
  if (!r.inputs.plan_name_map.empty()) s += " --plan-name-map " + r.inputs.plan_name_map;
  if (!n.sources.nodes_dir.empty()) s += " --nodes-dir " + n.sources.nodes_dir;
  for (const auto& c : n.sources.node_classes) s += " --node-class '" + c + "'";
  if (!r.slurm_conf.empty()) s += " --slurm-conf " + r.slurm_conf;
  if (!r.cluster_name.empty()) s += " --cluster-name '" + r.cluster_name + "'";
  if (!r.topology.empty()) s += " --topology " + r.topology;
  if (!r.profile.empty()) s += " --profile " + r.profile;
  if (!r.baseline.empty()) s += " --baseline " + r.baseline;
  if (!r.measured.empty()) s += " --measured " + r.measured;
  if (r.format != "conf") s += " --format " + r.format;
  if (r.plugin != "tree") s += " --plugin " + r.plugin;
  if (!r.nvlink_domains.empty()) s += " --nvlink-domains " + r.nvlink_domains;
  if (!slurm_version.empty()) s += " --slurm-version " + slurm_version;
  return s;
}

}  // namespace

void add_report_command(CLI::App& app) {
  struct Options {
    CommissionRequest request;
    NodeInputs nodes;
    CommissionOutputs outputs;
    std::string slurm_version;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report", "The commissioning report: verdict, inventory, drawing, link health, nodes, performance, Slurm files");
  cmd->footer(exit_status_text("PASS: every check passed (the files asked for are written)",
                               "bad input (the file and line named on stderr): nothing written",
                               {{exit_code::kAttention, "WARN: the files are written; some check warns (see the verdict lines)"},
                                {exit_code::kFails, "FAIL: the files are written; some check fails"}}) +
              "\n" +
              examples_text({{"slurmtopo report --fabric fabric.topo --nodes-dir nodes/ --slurm-conf /etc/slurm/slurm.conf "
                              "--topology /etc/slurm/topology.conf -o report.html --json report.json",
                              "the page to hand over, and the JSON a cron job gates on (exit 0, 3 or 4)"}}));
  add_fabric_options(*cmd, opt->request.inputs, FabricOption::Required);
  add_counters_option(*cmd, opt->request.inputs);
  add_plan_option(*cmd, opt->request.inputs);
  add_node_options(*cmd, opt->nodes);
  add_slurm_conf_option(*cmd, opt->request.slurm_conf, "Slurm's nodes, its NodeName lines");
  cmd->add_option("--cluster-name", opt->request.cluster_name,
                  "the cluster's name in the report (default: slurm.conf's ClusterName, with --slurm-conf)")
      ->check(CLI::Validator(
          [](std::string& v) { return v.find_first_not_of(" \t") == std::string::npos ? "expected a name, got ''" : ""; },
          "NAME"));
  add_topology_input_option(*cmd, opt->request.topology, "the file in service, diffed against the generated one");
  add_profile_option(*cmd, opt->request.profile, "for the predictions (default: from the nodes)");
  cmd->add_option("--baseline", opt->request.baseline, "an earlier report's JSON: what is new, fixed, still open")
      ->check(CLI::ExistingFile);
  add_measured_option(*cmd, opt->request.measured, "each run against its prediction, and why it fell short");
  add_slurm_version_option(*cmd, opt->slurm_version, "the one the files are for and checked by");
  add_topology_form_options(*cmd, {&opt->request.format, &opt->request.plugin, &opt->request.nvlink_domains});
  add_output_option(*cmd, opt->outputs.html, "the HTML page");
  cmd->add_option("--json", opt->outputs.json,
                  "machine-readable output (JSON): also write the report to this file (docs/report-json.md)");
  cmd->add_option("--md", opt->outputs.markdown, "also write a Markdown summary");
  cmd->add_option("--textfile", opt->outputs.textfile,
                  "DIR of node_exporter's textfile collector: write DIR/slurmtopo_report.prom there (each check's "
                  "verdict, the findings per kind, the node findings per host)")
      ->check(CLI::ExistingDirectory);
  cmd->callback([opt] {
    opt->request.nodes = opt->nodes.sources;
    opt->request.node_hosts = opt->nodes.nodes;
    opt->request.command = command_line(opt->request, opt->nodes, opt->slurm_version);
    opt->request.release = resolve_release(opt->slurm_version);
    const CommissionReport report = plan_commission(opt->request);
    opt->outputs.now = static_cast<int64_t>(::time(nullptr));
    if (const int code = write_commission(report, opt->outputs, std::cerr)) throw Exit{code};
  });
}

}  // namespace slurmtopo::cli
