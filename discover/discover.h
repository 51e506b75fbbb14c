// discover/: facts in, nothing inferred.
//   Fabric: fabric.h (the value), fabric_file.h (--fabric FILE of any saved form, recognised by
//     content: ibnetdiscover_text.h, ibnetdiscover_ports_text.h (-p), iblinkinfo_text.h,
//     ibnd_cache.h, snapshot.h; terminal_capture.h strips a terminal session's own lines,
//     refused_forms.h names the forms that cannot be read), live_fabric.h (a live sweep
//     through libibnetdisc, sweep_watch.h keeping it honest about time), lft.h (forwarding
//     tables), name_map.h (GUID → host; port_owner.h for CAs known by port GUIDs only),
//     site_config.h (site.yaml), device_ids.h (what a device id is and the fastest it trains;
//     switch_models.h names switches from it), synthetic_fabric.h, synthetic_names.h,
//     hca_generations.h (older HCAs in a generated fabric) and the
//     writers (ibnetdiscover_writer.h, ibsim_net_writer.h) for generated fabrics, generate_plan.h
//     (the files `generate` writes).
//   Cabling plans: cable_plan.h (the value), plan_file.h (--plan FILE: cable_list.h for CSV,
//     ibdm_topology.h for ibdiagnet -t files; the plan name map), plan_fabric.h (the fabric a
//     plan describes, for generate from-plan).
//   Nodes: node_inventory.h (the value), hwloc_node.h (live or an XML export), node_json.h,
//     node_set.h (--nodes-dir / --node-class, node classes), collect_plan.h (one srun step),
//     collect_run.h (running it), nvlink_domains.h (each GPU's NVLink ClusterUUID/CliqueId).
#pragma once

#include "discover/cable_plan.h"
#include "discover/collect_plan.h"
#include "discover/collect_run.h"
#include "discover/device_ids.h"
#include "discover/fabric.h"
#include "discover/fabric_file.h"
#include "discover/generate_plan.h"
#include "discover/hca_generations.h"
#include "discover/hwloc_node.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/ibsim_net_writer.h"
#include "discover/lft.h"
#include "discover/live_fabric.h"
#include "discover/meminfo.h"
#include "discover/name_map.h"
#include "discover/node_inventory.h"
#include "discover/node_json.h"
#include "discover/node_set.h"
#include "discover/plan_fabric.h"
#include "discover/plan_file.h"
#include "discover/nvlink_domains.h"
#include "discover/site_config.h"
#include "discover/snapshot.h"
#include "discover/sweep_watch.h"
#include "discover/switch_models.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_faults.h"
#include "discover/synthetic_names.h"
