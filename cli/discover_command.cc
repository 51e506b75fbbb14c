// `slurmtopo discover fabric`: cli/discover_fabric_command.cc.
// `slurmtopo discover node`: one node's NodeInventory (live hwloc or an XML export) as JSON.
// `slurmtopo discover classes`: hosts from --nodes-dir / --node-class grouped into classes.
// Also registers `slurmtopo collect` (cli/collect_command.cc).
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/collect_command.h"
#include "cli/commands.h"
#include "discover/discover.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {
namespace {

void print_warnings(const std::string& who, const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) std::cerr << "warning: " << who << (who.empty() ? "" : ": ") << w << "\n";
}

void add_node(CLI::App& discover) {
  struct Options {
    std::string xml, hostname, output;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = discover.add_subcommand("node", "One node as JSON: this machine, or an hwloc XML export");
  cmd->add_option("--xml", o->xml, "hwloc XML export (`lstopo --of xml --whole-io`); default: this machine")
      ->check(CLI::ExistingFile);
  cmd->add_option("--hostname", o->hostname, "node name to record (default: the export's HostName, else the file name)");
  cmd->add_option("-o,--output", o->output, "write the JSON here (atomically) instead of stdout");
  cmd->callback([o] {
    NodeInventory node = o->xml.empty() ? discover_local_node() : load_node_xml(o->xml, o->hostname);
    if (!o->hostname.empty()) node.hostname = o->hostname;
    print_warnings(node.hostname, node.warnings);
    const std::string json = node_to_json(node);
    write_output(o->output, json);
  });
}

void add_classes(CLI::App& discover) {
  struct Options {
    NodeSources sources;
    std::string nodes;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = discover.add_subcommand("classes", "Group hosts with the same hardware into node classes");
  cmd->add_option("--nodes-dir", o->sources.nodes_dir, "directory of <hostname>.xml / <hostname>.json")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--node-class", o->sources.node_classes, "'HOSTLIST=FILE' for identical hosts (repeatable)");
  cmd->add_option("--nodes", o->nodes, "hostlist of the nodes that must all be described");
  cmd->add_flag("--allow-missing", o->sources.allow_missing, "a listed node without a file is a warning, not an error");
  cmd->callback([o] {
    if (o->sources.nodes_dir.empty() && o->sources.node_classes.empty())
      throw InputError("discover classes", 0, "expected --nodes-dir DIR and/or --node-class 'HOSTLIST=FILE'");
    if (!o->nodes.empty()) {
      o->sources.expected_hosts = expand_hostlist_at(o->nodes, "--nodes");
    }
    const NodeSet set = load_node_set(o->sources);
    print_warnings("", set.warnings);
    for (const NodeClass& c : set.classes) {
      const NodeInventory& n = set.nodes[c.representative];
      std::cout << c.hostlist << " (" << c.hosts.size() << " node" << (c.hosts.size() == 1 ? "" : "s") << "): "
                << c.signature << "\n";
      for (const Gpu& g : n.gpus) {
        std::cout << "  gpu" << g.index << " " << g.pci_busid << " " << (g.slurm_type.empty() ? "?" : g.slurm_type)
                  << " " << g.device_file << "  NICs:";
        for (size_t k = 0; k < n.nics.size(); ++k) std::cout << " " << n.nics[k].name << "=" << to_string(n.gpu_nic[g.index][k]);
        std::cout << "\n";
      }
    }
  });
}

}  // namespace

void add_discover_command(CLI::App& app) {
  CLI::App* discover = app.add_subcommand(
      "discover", "What is there: the fabric swept live, nodes through hwloc, node classes");
  discover->require_subcommand(1);
  add_discover_fabric_command(*discover);
  add_node(*discover);
  add_classes(*discover);
  add_collect_command(app);
}

}  // namespace slurmtopo::cli
