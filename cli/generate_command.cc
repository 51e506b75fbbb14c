#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "discover/discover.h"
#include "graph/graph.h"

namespace slurmtopo::cli {

namespace {
struct Common {
  std::string output;
  std::string speed = "NDR";
  std::string format = "ibnetdiscover";
  std::vector<std::string> remove_cables, degrade_cables, cross_rails, hca_generations, swap_cables, move_cables,
      offset_units;
  int planes = 1;
  bool factory_hcas = false;
  std::string name_map_output;
  int nvlink_domain_nodes = 0;
  std::string domains_output;
  LinkSpeed parsed_speed() const {
    LinkSpeed s = parse_link_speed(speed);  // --speed's check made it one of synthetic_speeds()
    if (s == LinkSpeed::Unknown) throw InputError("--speed", 0, "one of the speeds --help lists, not " + speed);
    return s;
  }
};

// Older HCA generations first, so a fault can still degrade one of their cables; then the
// faults, then the names: the map is written from the hosts' descriptions before
// --factory-hcas takes them away, so it names what the fabric no longer says.
Fabric with_faults(Fabric fabric, const Common& c) {
  std::vector<HcaGeneration> generations;
  for (const auto& spec : c.hca_generations) generations.push_back(parse_hca_generation(spec));
  apply_hca_generations(fabric, generations);
  Faults faults = parse_faults(c.remove_cables, c.degrade_cables, c.cross_rails);
  faults.swap_cables = parse_switch_port_pairs("--swap-cables", c.swap_cables);
  faults.move_cables = parse_switch_port_pairs("--move-cable", c.move_cables);
  faults.offset_units = c.offset_units;
  apply_faults(fabric, faults);
  if (!c.name_map_output.empty()) write_output(c.name_map_output, synthetic_node_name_map(fabric));
  if (c.domains_output.empty() != (c.nvlink_domain_nodes == 0))
    throw InputError(c.domains_output.empty() ? "--nvlink-domain-nodes" : "--write-nvlink-domains", 0,
                     "expected --nvlink-domain-nodes N and --write-nvlink-domains FILE together");
  if (!c.domains_output.empty())
    write_output(c.domains_output, synthetic_nvlink_domains(fabric, c.nvlink_domain_nodes));
  if (c.factory_hcas) give_factory_descriptions(fabric);
  return fabric;
}

void write_plan(const GeneratePlan& plan) {
  for (const auto& f : plan.files) write_output(f.path, f.text);
  for (const auto& note : plan.notes) std::cerr << "slurmtopo: " << note << "\n";
}

GeneratedFormat format_of(const Common& c) {
  return c.format == "ibsim" ? GeneratedFormat::Ibsim : GeneratedFormat::Ibnetdiscover;
}

// --format plan: the cable list of what was generated (graph/cluster_cables.h), for --plan.
void write_cable_list(std::vector<Fabric> fabrics, const Common& c, const std::string& generator) {
  write_output(c.output, cable_list_of(std::move(fabrics), "cabling plan of a fabric slurmtopo generate " + generator +
                                                                 " made: one cable per line (docs/cabling-plan.md)"));
}

// --speed: the speeds the generators have switch models for, in any case (`--speed ndr`, as
// ibportstate and the vendors' tools take them).
void add_speed_option(CLI::App& cmd, std::string& speed) {
  std::string names;
  for (const auto& n : synthetic_speeds()) names += (names.empty() ? "" : ", ") + n;
  cmd.add_option("--speed", speed, "link speed: " + names + " (any case)")
      ->transform(one_of(synthetic_speeds(), true))
      ->capture_default_str();
}

// Options every generator shares.
void add_common(CLI::App& cmd, Common& c) {
  cmd.add_option("--format", c.format,
                 "form of the written file: ibnetdiscover (topology text), ibsim (a net file ibsim serves; speeds up "
                 "to HDR) or plan (its cable list, CSV, for --plan)")
      ->check(one_of({"ibnetdiscover", "ibsim", "plan"}))
      ->capture_default_str();
  cmd.add_option("--remove-cable", c.remove_cables, "remove a cable: 'A,B', one cable between A and B left out (repeatable)");
  cmd.add_option("--swap-cables", c.swap_cables,
                 "'A[p],B[q]': the cables in switch ports A[p] and B[q] exchange places, as two cables plugged into "
                 "each other's ports (repeatable)");
  cmd.add_option("--move-cable", c.move_cables,
                 "'A[p],B[q]': the cable in switch port A[p] is plugged into the free port B[q] instead (repeatable)");
  cmd.add_option("--offset-unit", c.offset_units,
                 "'UNIT': on every leaf named UNIT-… each host cable is one port on, the last in the first host port: "
                 "a unit cabled one port off, alike on every leaf (repeatable)");
  cmd.add_option("--degrade-cable", c.degrade_cables,
                 "'A,B[,1x|EDR|1xEDR]': one cable between A and B trains degraded, 1x by default (repeatable)");
  cmd.add_option("--hca-generation", c.hca_generations,
                 "'HOSTLIST:SPEED': those hosts' HCAs are the ConnectX of that speed (QDR..XDR), their device id in "
                 "the dump and their cables trained at it: mixed generations, no fault (repeatable)");
  cmd.add_option("--cross-rails", c.cross_rails,
                 "'HOST[,J,K]': the host's mlx5_J and mlx5_K cables swap leaves (0 and 1 by default; repeatable)");
  cmd.add_flag("--factory-hcas", c.factory_hcas,
               "host HCAs keep their factory descriptions (\"MT4129 ConnectX7   Mellanox Technologies\"): only a "
               "node-name map names the hosts");
  cmd.add_option("--write-node-name-map", c.name_map_output,
                 "also write the hosts' node-name map (0xNODEGUID \"host\", ibnetdiscover's format) to this file");
  cmd.add_option("--nvlink-domain-nodes", c.nvlink_domain_nodes,
                 "hosts per NVLink domain (18: GB200/GB300 NVL72 racks), consecutive in host order, for "
                 "--write-nvlink-domains")
      ->check(whole_number(1, 576));
  cmd.add_option("--write-nvlink-domains", c.domains_output,
                 "also write the hosts' NVLink domains (HOST: CLUSTER_UUID.CLIQUE_ID, as --nvlink-domains reads them) "
                 "to this file");
  add_output_option(cmd, c.output, "file to write (with --planes: the NAME of NAME-planeK.topo)");
}
}  // namespace

void add_generate_command(CLI::App& app) {
  CLI::App* gen = app.add_subcommand("generate",
                                     "Synthetic fabrics as ibnetdiscover text or ibsim net files (samples, tests, benchmarks)");
  gen->require_subcommand(1);

  auto ft = std::make_shared<std::pair<FatTreeSpec, Common>>();
  CLI::App* fat = gen->add_subcommand("fattree", "2- or 3-level fat tree");
  fat->footer(plain_exit_status() + "\n" +
              examples_text({{"slurmtopo generate fattree --levels 3 --radix 32 --hosts 512 -o fat.topo",
                              "ibnetdiscover text of a 512-host three-level fat tree"},
                             {"slurmtopo generate fattree --speed HDR --format ibsim -o fat.net",
                              "the same as a net file ibsim serves"}}));
  fat->add_option("--levels", ft->first.levels, "2 or 3")->check(one_of({"2", "3"}));
  fat->add_option("--radix,-k", ft->first.radix, "switch ports used for cables")->check(whole_number(4, 128));
  fat->add_option("--hosts", ft->first.hosts, "hosts (0 = the full tree)")->check(whole_number(0));
  fat->add_option("--oversubscription", ft->first.oversubscription, "leaf down:up ratio, e.g. 2 for 2:1")
      ->check(number_from(1, 16));
  fat->add_option("--cables-per-pair", ft->first.cables_per_pair, "parallel cables between switches")->check(whole_number(1, 8));
  fat->add_option("--rails", ft->first.rails, "rails: HCAs per host")->check(whole_number(1, 16));
  fat->add_option("--width", ft->first.width, "lanes per cable")->check(one_of({"1", "2", "4", "8", "12"}));
  add_speed_option(*fat, ft->second.speed);
  fat->add_option("--host-prefix", ft->first.host_prefix, "host name prefix");
  fat->add_flag("--sharp", ft->first.sharp, "a SHARP aggregation node on every switch");
  fat->add_option("--subnet", ft->first.subnet, "0-255: GUIDs of another subnet, so generated fabrics can be given together")
      ->check(whole_number(0, 255));
  add_common(*fat, ft->second);
  fat->callback([ft] {
    ft->first.speed = ft->second.parsed_speed();
    const Fabric fabric = with_faults(generate_fattree(ft->first), ft->second);
    if (ft->second.format == "plan") return write_cable_list({fabric}, ft->second, "fattree");
    write_plan(plan_generated_fabric(fabric, format_of(ft->second), ft->second.output));
  });

  auto ro = std::make_shared<std::pair<RailOptimizedSpec, Common>>();
  CLI::App* rail = gen->add_subcommand("railopt", "rail-optimized scalable units (DGX SuperPOD style)");
  rail->footer(plain_exit_status() + "\n" +
               examples_text({{"slurmtopo generate railopt --scalable-units 4 --rails 8 --storage --sharp -o superpod.topo",
                               "four SuperPOD-style scalable units with a storage rail and SHARP"},
                              {"slurmtopo generate railopt --scalable-units 8 --hosts-per-su 18 --rails 4 "
                               "--nvlink-domain-nodes 18 --write-nvlink-domains nvl72.domains -o nvl72.topo",
                               "eight GB200 NVL72 racks (18 trays of 4 GPUs, a NIC per GPU on its rail) and their "
                               "NVLink domains"}}));
  rail->add_option("--scalable-units", ro->first.scalable_units, "scalable units")->check(whole_number(1, 256));
  rail->add_option("--hosts-per-su", ro->first.hosts_per_su, "hosts per scalable unit")->check(whole_number(1, 128));
  rail->add_option("--rails", ro->first.rails, "rails: compute HCAs per host (--storage adds one)")->check(whole_number(1, 16));
  rail->add_option("--radix,-k", ro->first.radix, "switch ports used for cables")->check(whole_number(4, 128));
  rail->add_option("--spines-per-rail", ro->first.spines_per_rail, "0 = enough for 1:1")->check(whole_number(0));
  rail->add_option("--width", ro->first.width, "lanes per cable")->check(one_of({"1", "2", "4", "8", "12"}));
  add_speed_option(*rail, ro->second.speed);
  rail->add_option("--host-prefix", ro->first.host_prefix, "host name prefix");
  rail->add_flag("--sharp", ro->first.sharp, "a SHARP aggregation node on every switch");
  rail->add_flag("--storage", ro->first.storage_switch, "one more HCA per host on a storage tier");
  rail->add_option("--planes", ro->second.planes,
                   "rail planes as separate subnets: one dump (-o NAME-planeK.topo) and, up to HDR, one ibsim net "
                   "file (NAME-planeK.net) per plane; rails must divide into them")
      ->check(whole_number(1, 16));
  rail->add_option("--subnet", ro->first.subnet, "0-255: GUIDs of another subnet, so generated fabrics can be given together")
      ->check(whole_number(0, 255));
  add_common(*rail, ro->second);
  rail->callback([ro] {
    ro->first.speed = ro->second.parsed_speed();
    const Fabric fabric = with_faults(generate_rail_optimized(ro->first), ro->second);
    if (ro->second.format == "plan")
      return write_cable_list(ro->second.planes > 1 ? split_rail_planes(fabric, ro->first, ro->second.planes)
                                                    : std::vector<Fabric>{fabric},
                              ro->second, "railopt");
    write_plan(ro->second.planes > 1
                   ? plan_rail_plane_files(split_rail_planes(fabric, ro->first, ro->second.planes), ro->second.output)
                   : plan_generated_fabric(fabric, format_of(ro->second), ro->second.output));
  });

  auto fp = std::make_shared<std::pair<std::string, Common>>();
  CLI::App* from = gen->add_subcommand("from-plan", "the fabric a cabling plan describes, to rehearse --plan on ibsim");
  from->footer(plain_exit_status() + "\n" +
               examples_text({{"slurmtopo generate from-plan cables.csv --speed HDR --format ibsim -o plan.net",
                               "a net file ibsim serves, cabled as the plan says"}}));
  from->add_option("PLAN", fp->first, "the plan: a cable list (CSV) or an ibdm topology file (docs/cabling-plan.md)")
      ->required()
      ->check(CLI::ExistingFile);
  add_speed_option(*from, fp->second.speed);
  add_common(*from, fp->second);
  from->callback([fp] {
    const Fabric fabric = with_faults(fabric_from_plan(read_cable_plan(fp->first), fp->second.parsed_speed()), fp->second);
    if (fp->second.format == "plan") return write_cable_list({fabric}, fp->second, "from-plan");
    write_plan(plan_generated_fabric(fabric, format_of(fp->second), fp->second.output));
  });
}

}  // namespace slurmtopo::cli
