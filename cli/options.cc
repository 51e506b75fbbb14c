#include "cli/options.h"

#include <iostream>

#include "simulate/collective/collective.h"

namespace slurmtopo::cli {

CLI::Option* add_fabric_options(CLI::App& app, ClusterInputs& inputs, FabricOption need,
                                const std::string& fabric_help) {
  CLI::Option* fabric = nullptr;
  if (need != FabricOption::MapsOnly) {
    // Every form load_fabric_file reads, named as the admin saved it.
    const std::string forms = "the InfiniBand fabric: ibnetdiscover text, iblinkinfo output, libibnetdisc cache or slurmtopo snapshot";
    const std::string help = need == FabricOption::Required ? forms + "; repeat once per subnet"
                             : forms + (fabric_help.empty() ? ", to join GPUs to rails and leaves (repeatable)"
                                                            : " (" + fabric_help + ")");
    fabric = app.add_option("--fabric", inputs.fabric_files, help)->check(CLI::ExistingFile);
    if (need == FabricOption::Required) fabric->required();
  }
  app.add_option("--node-name-map,--guid-map", inputs.name_map,
                 "GUID to host name: ibnetdiscover --node-name-map format or 'GUID name' lines")
      ->check(CLI::ExistingFile);
  app.add_option("--config", inputs.site_config, "site.yaml: host regex, exclusions, expected links")
      ->check(CLI::ExistingFile);
  return fabric;
}

void add_counters_option(CLI::App& app, ClusterInputs& inputs, const std::string& what) {
  app.add_option("--counters", inputs.counter_files,
                 "port counters to judge every cable end by: ibqueryerrors (plain, -r, --data, --details), perfquery (one "
                 "port, -a, -l, -x) or ibdiagnet2.pm output, recognised by content (repeatable)" +
                     (what.empty() ? "" : "; " + what))
      ->check(CLI::ExistingFile);
}

void add_plan_option(CLI::App& app, ClusterInputs& inputs) {
  app.add_option("--plan", inputs.plan_files,
                 "the cabling plan to check every cable against, recognised by content: a cable list (CSV, "
                 "docs/cabling-plan.md), an ibdm topology file (ibdiagnet -t), or a fabric accepted earlier (slurmtopo "
                 "snapshot, ibnetdiscover text or cache); cables named by switch and port, host and HCA")
      ->check(CLI::ExistingFile);
  app.add_option("--plan-name-map", inputs.plan_name_map,
                 "where the plan names devices otherwise than the fabric does: one `PLAN-NAME FABRIC-NAME` pair per "
                 "line")
      ->check(CLI::ExistingFile);
}

CLI::Option* add_nodes_dir_option(CLI::App& app, std::string& dir, const std::string& what) {
  return app
      .add_option("--nodes-dir", dir,
                  "directory of <hostname>.xml (hwloc) / <hostname>.json (slurmtopo discover node)" +
                      (what.empty() ? "" : ": " + what))
      ->check(CLI::ExistingDirectory);
}

void add_slurm_version_option(CLI::App& app, std::string& version, const std::string& decides) {
  app.add_option("--slurm-version", version,
                 "Slurm release, YY.MM (22.05 to 26.05): " + decides +
                     " (default: what the installed scontrol, slurmctld or slurmd prints, else 22.05)");
}

TargetRelease resolve_release(const std::string& requested) {
  TargetRelease release = target_release(requested);
  if (release.defaulted)
    std::cerr << "slurmtopo: warning: no --slurm-version and no Slurm on PATH (scontrol, slurmctld, slurmd): "
                 "working for Slurm "
              << to_string(release.release) << ", the default; pass --slurm-version YY.MM for another release\n";
  return release;
}

CLI::Option* add_profile_option(CLI::App& app, std::string& profile, const std::string& what) {
  std::string names;
  for (const auto& n : builtin_profile_names()) names += (names.empty() ? "" : ", ") + n;
  return app.add_option("--profile", profile, "hardware profile: a shipped name (" + names + ") or a YAML file, " + what);
}

CLI::Option* add_measured_option(CLI::App& app, std::string& path, const std::string& what) {
  return app
      .add_option("--measured", path,
                  "nccl-tests outputs with their NCCL_DEBUG=INFO lines or logs (a file, or a directory of them): " + what)
      ->check(CLI::ExistingPath);
}

CLI::Option* add_slurm_conf_option(CLI::App& app, std::string& slurm_conf, const std::string& what) {
  return app.add_option("--slurm-conf", slurm_conf, "slurm.conf: " + what)->check(CLI::ExistingFile);
}

void add_node_options(CLI::App& app, NodeInputs& inputs) {
  add_nodes_dir_option(app, inputs.sources.nodes_dir);
  app.add_option("--node-class", inputs.sources.node_classes, "'HOSTLIST=FILE' for identical hosts (repeatable)");
  add_nodes_option(app, inputs.nodes, "each must be described (a missing file is an error)");
}

CLI::Option* add_nodes_option(CLI::App& app, std::string& nodes, const std::string& what) {
  return app.add_option("--nodes", nodes, "the nodes, a Slurm hostlist: " + what);
}

CLI::Option* add_dry_run_option(CLI::App& app, bool& dry_run, const std::string& what) {
  return app.add_flag("--dry-run", dry_run, "dry run: " + what);
}

CLI::Option* add_json_flag(CLI::App& app, bool& json, const std::string& what) {
  return app.add_flag("--json", json, "machine-readable output (JSON)" + (what.empty() ? "" : ": " + what));
}

CLI::Option* add_save_option(CLI::App& app, std::string& file, const std::string& what) {
  return app.add_option("--save", file, "snapshot: write the fabric as JSON that --fabric reads back" + (what.empty() ? "" : ", " + what));
}

CLI::Option* add_dev_dir_option(CLI::App& app, std::string& dir) {
  return app.add_option("--dev-dir", dir, "directory of the GPU device files in gres.conf's File= (default: as discovered, /dev)");
}

void add_job_options(CLI::App& app, const JobOptions& into) {
  app.add_option("--weights", *into.weights, "node Weight=, 'HOSTLIST=W,...' (others 1)");
  app.add_option("--busy", *into.busy, "busy nodes: allocated to other jobs (hostlist)" + into.busy_detail);
  app.add_option("--topology-param", *into.topology_param, "TopologyParam: TopoOptional and/or Dragonfly (comma separated)");
}

void add_batch_job_options(CLI::App& app, const BatchJobOptions& into, const std::string& what) {
  app.add_option("-p,--partition", *into.partition, "partition: for " + what);
  app.add_option("-A,--account", *into.account, "account: for " + what);
  app.add_option("-t,--time", *into.time_limit, "time limit: for " + what)->capture_default_str();
}

void add_container_options(CLI::App& app, std::string& exec, std::string& image, const std::string& exec_what,
                           const std::string& image_what) {
  app.add_option("--container-exec", exec,
                 "container command prefix: e.g. 'apptainer exec --nv /images/train.sif', " + exec_what);
  app.add_option("--container-image", image, "container image (Pyxis): e.g. nvcr.io#nvidia/pytorch:24.05-py3, " + image_what);
}

CLI::Option* add_output_option(CLI::App& app, std::string& output, const std::string& what) {
  return app.add_option("-o,--output", output, "output: " + what + " (\"-\" or absent: stdout)");
}

CLI::Option* add_output_dir_option(CLI::App& app, std::string& dir, const std::string& what) {
  return app.add_option("-o,--output", dir, "output: the directory for " + what)->required();
}

CLI::Option* add_allow_missing_option(CLI::App& app, bool& allow, const std::string& what) {
  return app.add_flag("--allow-missing", allow, "accept missing nodes: " + what);
}

CLI::Option* add_topology_input_option(CLI::App& app, std::string& file, const std::string& what) {
  return app
      .add_option("--topology", file,
                  "the topology.conf or topology.yaml Slurm uses (SwitchName= tree, BlockName= block): " + what)
      ->check(CLI::ExistingFile);
}

void add_topology_form_options(CLI::App& app, const TopologyFormOptions& into) {
  app.add_option("--format", *into.format, "form of the written file: conf (topology.conf) or yaml (topology.yaml, Slurm 25.05+)")
      ->check(one_of({"conf", "yaml"}))
      ->capture_default_str();
  app.add_option("--plugin", *into.plugin, "tree or block (topology/block, 23.11+); in yaml: the cluster_default")
      ->check(one_of({"tree", "block"}))
      ->capture_default_str();
  add_nvlink_domains_option(app, *into.nvlink_domains,
                            "topology/block gets a block per domain; on an NVL72 profile, the report's predictions count "
                            "domains, not nodes");
}

CLI::Option* add_nvlink_domains_option(CLI::App& app, std::string& path, const std::string& what) {
  return app
      .add_option("--nvlink-domains", path,
                  "NVLink domains: a HOST: CLUSTER_UUID[.CLIQUE] file, or collect's directory of HOST.fabric.csv; " + what)
      ->check(CLI::ExistingPath);
}

}  // namespace slurmtopo::cli
