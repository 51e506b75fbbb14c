// Synthetic InfiniBand fabrics for samples, tests and benchmarks: pure functions, no I/O,
// deterministic (same spec → same GUIDs, LIDs and descriptions), shaped like real sweeps.
//
// What real fabrics print, and so what these do:
//   switches  "MF0;<name>:MQM9700/U1"; the port count includes the internal SHARP port
//             (NDR MQM9700 64+1, HDR MQM8700 40+1, EDR MSB7800 36+1); GUID 0xb83fd20300a00000+16i
//   SHARP     "Mellanox Technologies Aggregation Node" CA on that internal last port,
//             GUID = switch GUID + 8 (as Quantum ASICs do), device 0xcf09
//   HCAs      "<host> mlx5_<n>", GUID 0xb83fd20300c00000 + 16*host + n, port GUID = node GUID,
//             ConnectX generation matching the speed (NDR → CX-7, device 0x1021)
//             --subnet N adds N << 24 to every GUID (another subnet, same vendor OUI)
//   LIDs      1, 2, … switches first, then HCAs, then aggregation nodes, as after an SM sweep.
//             A subnet has 49151 unicast LIDs; nodes beyond that keep LID 0 (the k=64 3-level
//             tree has 70,656 nodes: a real SM could not address it as one subnet either).
//   names     hosts <prefix>NNN padded to the digits of the host count (at least 3); switch
//             tiers padded likewise (leaf001, spine01, pod01-agg01, core001, su1-rail0,
//             rail0-spine01, stor-leaf01, stor-spine01).
//
// Fat-tree wiring (k = radix, r = oversubscription, c = cables_per_pair):
//   leaf      down = round(k*r/(r+1)) ports 1..down for hosts, up = k-down uplinks after them;
//             a host takes `rails` consecutive down ports, so hosts_per_leaf = down / rails.
//   any tier  uplink j of a lower switch goes to upper switch j % uppers (round robin); an upper
//             switch gives each lower switch a block of consecutive ports, in lower order.
//   2-level   spines = ceil(up/c): every leaf reaches every spine with c cables; at most k/c
//             leaves, so a full tree has (k/c)*hosts_per_leaf hosts (k*k/2 for r=1, c=1).
//   3-level   pods of k/(2c) leaves and ceil(up/c) aggregation switches (k/2 ports down, k/2
//             up); aggregation switch j of every pod reaches only core group j, which has the
//             fewest cores that take k/2 uplinks from every pod (k/2 when all k pods exist).
//             Full: k pods, k*k*k/4 hosts, 5k*k/4 switches for r=1, c=1.
//   hosts < full: leaves fill in order and only the leaves (and pods) needed are built; the
//             2-level spine count and the pod's aggregation switches stay as above.
// Rail-optimized wiring: SU s has one leaf per rail (su<s>-rail<r>) with host i of the SU on
//   port i+1; each leaf has hosts_per_su uplinks (1:1) spread over its rail plane's spines
//   (rail<r>-spineNN), which join rail r's leaves of every SU; spines_per_rail = 0 picks the
//   fewest spines whose ports suffice. storage_switch adds mlx5_<rails> on every host, on
//   stor-leafNN switches (k/2 hosts, k/2 uplinks each) under stor-spineNN.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "discover/fabric.h"
#include "discover/synthetic_faults.h"  // Faults, apply_faults: what a generated fabric gets wrong

namespace slurmtopo {

struct FatTreeSpec {
  int levels = 2;                 // 2 or 3
  int radix = 64;                 // switch ports used for cables (k), ≤ the model's ports
  int hosts = 0;                  // 0 = the full tree (see wiring above)
  double oversubscription = 1.0;  // leaf down:up, e.g. 2.0 = 2:1
  int cables_per_pair = 1;        // parallel cables from a leaf to each upper switch it reaches
  int rails = 1;                  // HCAs per host, all on the host's leaf
  int width = 4;
  LinkSpeed speed = LinkSpeed::NDR;  // EDR, HDR or NDR (picks the switch and HCA model)
  std::string host_prefix = "gpu";
  std::string switch_prefix = "";  // prepended to every switch name
  bool sharp = false;              // an aggregation node on every switch
  int subnet = 0;                  // 0..255: GUIDs of another subnet, to give several together
};

struct RailOptimizedSpec {  // DGX SuperPOD style
  int scalable_units = 4;
  int hosts_per_su = 32;
  int rails = 8;
  int radix = 64;
  int spines_per_rail = 0;  // 0 = the fewest that carry every leaf's 1:1 uplinks
  int width = 4;
  LinkSpeed speed = LinkSpeed::NDR;
  std::string host_prefix = "dgx";
  bool sharp = false;
  // Every host also has one storage HCA (mlx5_<rails>) on a separate storage tier, which
  // serves all hosts and so must not become a Slurm leaf.
  bool storage_switch = false;
  int subnet = 0;  // 0..255: GUIDs of another subnet, to give several together
};

// The speeds the generators have a switch and HCA model for ("EDR", "HDR", "NDR"), for the CLI's
// --speed check: a speed it accepts is one the generators build.
std::vector<std::string> synthetic_speeds();

// Both throw InputError when the spec cannot be built, naming the `slurmtopo generate` option
// that sets the field at fault ("--hosts: 3000 hosts exceed the 2048 of this 2-level tree").
Fabric generate_fattree(const FatTreeSpec& spec);
Fabric generate_rail_optimized(const RailOptimizedSpec& spec);

// Rail planes as separate subnets (one SM per rail, the same hosts on every plane): the
// rail-optimized fabric cut into `planes` fabrics of rails/planes consecutive rails each, every
// one named "<name>-plane<k>" (k from 1). Throws InputError("--planes") when rails do not divide
// into planes or a storage tier would belong to none. `fabric` is what generate_rail_optimized
// (and apply_faults) made of `spec`.
std::vector<Fabric> split_rail_planes(const Fabric& fabric, const RailOptimizedSpec& spec, int planes);

// The switch and HCA a generated fabric of this speed is built from (EDR, HDR, NDR): their
// device ids and the switch's ports at 4x; nullopt for a speed no generator builds. generate
// from-plan gives its nodes the same models (discover/plan_fabric.h).
struct SyntheticModel {
  uint32_t switch_device = 0, hca_device = 0;
  int switch_ports = 0;
};
std::optional<SyntheticModel> synthetic_model(LinkSpeed speed);

// What a generated HCA says before a host names it, by its device id; whether a generated
// CA is a host's HCA (not a SHARP aggregation node). For synthetic_faults.cc.
const char* synthetic_factory_description(uint32_t hca_device);
bool is_synthetic_host_hca(const FabricNode& n);

}  // namespace slurmtopo
