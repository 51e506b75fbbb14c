// A generated fabric as a site first meets it: HCAs that still say only what the factory wrote
// ("MT4129 ConnectX7   Mellanox Technologies"), so that only a node-name map names the hosts.
// For `slurmtopo generate --factory-hcas --write-node-name-map FILE` and the tests that check
// every input form names the same hosts from the same map.
#pragma once

#include <string>

#include "discover/fabric.h"

namespace slurmtopo {

// ibnetdiscover's --node-name-map format: `0x<node GUID> "<host>"` for every host HCA (a
// "<host> mlx5_<n>" description), in GUID order, after a comment saying what it is. Node GUIDs,
// as sites key them: readers that see only port GUIDs find them by discover/port_owner.h.
std::string synthetic_node_name_map(const Fabric& fabric);

// NVLink domains of a generated fabric built of NVL72-style racks: the hosts in natural order,
// `per_domain` consecutive ones a domain (the last may hold fewer), in the domains file's
// `HOST: CLUSTER_UUID.CLIQUE_ID` form (discover/nvlink_domains.h). Each domain has its own
// ClusterUUID, made from the fabric's GUIDs and the domain's number (same fabric → same file),
// and CliqueId 1. Throws InputError("--nvlink-domain-nodes") when per_domain < 1.
std::string synthetic_nvlink_domains(const Fabric& fabric, int per_domain);

// Every host HCA's description becomes its model's factory description; switches and SHARP
// aggregation nodes keep theirs.
void give_factory_descriptions(Fabric& fabric);

}  // namespace slurmtopo
