#!/usr/bin/env bash
# Writes samples/nodes/dgx001.json … dgx064.json: the node inventories (slurmtopo-node JSON,
# as `slurmtopo discover node -o` writes them) of the hosts of samples/superpod-4su.topo, so
# that `slurmtopo inspect --fabric samples/superpod-4su.topo --nodes-dir samples/nodes` shows
# GPU → NIC → rail → leaf end to end. Deterministic; needs only bash.
#
#   samples/make-nodes.sh [OUT_DIR]      (default: samples/nodes beside this script)
#
# Each host is shaped like a DGX H100 (no real 8-GPU export exists to copy, see
# ../shared/reference/hwloc.md): 2 sockets x 56 cores x 2 threads, one NUMA node per socket;
# 8 H100 SXM on NVSwitch, 18 NVLinks each into the switches (so no direct GPU-GPU links: no
# Links= in gres.conf; nvidia-smi topo -m prints NV18 between any two); GPU g shares a
# PCIe switch (PIX) with compute ConnectX-7 mlx5_g, whose node GUID is the fabric's
# "dgxNNN mlx5_g" (0xb83fd20300c00000 + 16*host_index + g, discover/synthetic_fabric.h);
# a dual-port Ethernet card (mlx5_8, mlx5_9) for storage on socket 1. GPUs and compute NICs
# 0-3 on socket 0, 4-7 on socket 1.
#
# One deliberate fault: in dgx010 the NICs at the PCI positions of rails 2 and 3 are swapped
# (mlx5_3, cabled to su1-rail3, sits on GPU 2's PCIe switch), so GPU 2 of dgx010 lands on
# another leaf than GPU 2 of its peers. The fabric adds its own: dgx005/dgx021 mlx5_3 crossed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/nodes}"
mkdir -p "$out"

gpu_bus=(1b 43 52 61 9d c3 d1 df)      # DGX H100's GPU bus numbers
nic_bus=(18 40 4f 5e 9a c0 ce dc)      # a compute NIC on each GPU's PCIe switch
storage_busid=(0000:e5:00.0 0000:e5:00.1)  # mlx5_8, mlx5_9: one dual-port card on socket 1
hosts=64
swap_host=10 swap_a=2 swap_b=3

gpu_socket=(0 0 0 0 1 1 1 1)
nic_socket=(0 0 0 0 1 1 1 1 1 1)         # compute NICs like their GPUs, then the storage card
join() { local IFS=,; echo "$*"; }      # "a,b,c"
cores=("$(join $(seq 0 55))" "$(join $(seq 56 111))")

# What every host shares, built once (bash subshells are slow on a busy machine).
# Path classes: own switch PIX, same socket NODE, other socket SYS (nvidia-smi topo -m); SELF
# on the diagonal: PIX for a GPU and its NIC, X for a GPU against itself.
matrix() {  # SELF COLUMNS_SOCKETS... (the rows are the 8 GPUs)
  local g n row cls self=$1 cols=("${@:2}")
  for g in 0 1 2 3 4 5 6 7; do
    row=""
    for n in "${!cols[@]}"; do
      if (( n == g )); then cls=$self
      elif (( cols[n] == gpu_socket[g] )); then cls=NODE
      else cls=SYS; fi
      row+="${row:+, }\"$cls\""
    done
    printf '  [%s]%s\n' "$row" "$( (( g == 7 )) || echo ,)"
  done
}
gpus_json=$(
  for g in 0 1 2 3 4 5 6 7; do
    s=${gpu_socket[g]}
    printf '  {"index": %d, "vendor": "nvidia", "model": "NVIDIA H100 80GB HBM3", "slurm_type": "h100",\n' "$g"
    printf '   "pci_busid": "0000:%s:00.0", "device_file": "/dev/nvidia%d",\n' "${gpu_bus[g]}" "$g"
    printf '   "cores": [%s],\n' "${cores[s]//,/, }"
    printf '   "numa_node": %d, "socket": %d, "nvlinks": [], "nvswitch_links": 18}%s\n' "$s" "$s" "$( (( g == 7 )) || echo ,)"
  done
)
gpu_nic_json=$(matrix PIX "${nic_socket[@]}")
gpu_gpu_json=$(matrix X "${gpu_socket[@]}")

node_json() {  # HOST_NUMBER
  local h=$1 name idx g n rail last
  printf -v name 'dgx%03d' "$h"
  idx=$(( h - 1 ))
  # NIC order = PCI bus order: the eight compute NICs, then the storage card (RoCE: its own
  # GUID range, never in the InfiniBand fabric).
  local nic_name=() nic_guid=() nic_busid=() nic_layer=() guid
  for g in 0 1 2 3 4 5 6 7; do
    rail=$g
    if (( h == swap_host )); then
      (( g == swap_a )) && rail=$swap_b
      (( g == swap_b )) && rail=$swap_a
    fi
    printf -v guid '0x%016x' $(( 0xb83fd20300c00000 + 16 * idx + rail ))
    nic_name+=("mlx5_$rail") nic_guid+=("$guid") nic_busid+=("0000:${nic_bus[g]}:00.0") nic_layer+=(InfiniBand)
  done
  for n in 0 1; do
    printf -v guid '0x%016x' $(( 0x946dae0300d00000 + 16 * idx + n ))
    nic_name+=("mlx5_$(( 8 + n ))") nic_guid+=("$guid") nic_busid+=("${storage_busid[n]}") nic_layer+=(Ethernet)
  done

  printf '{\n "format": "slurmtopo-node",\n "version": 2,\n "hostname": "%s",\n' "$name"
  printf ' "source": "samples/make-nodes.sh (DGX H100-like)",\n'
  printf ' "sockets": 2,\n "cores_per_socket": 56,\n "threads_per_core": 2,\n "numa_nodes": 2,\n'
  printf ' "memory_mib": 2063937,\n "gpus": [\n%s\n ],\n "nics": [\n' "$gpus_json"
  last=$(( ${#nic_name[@]} - 1 ))
  for n in "${!nic_name[@]}"; do
    printf '  {"name": "%s", "node_guid": "%s", "port_guids": ["%s"], "pci_busid": "%s", "link_layer": "%s", "numa_node": %d, "socket": %d}' \
      "${nic_name[n]}" "${nic_guid[n]}" "${nic_guid[n]}" "${nic_busid[n]}" "${nic_layer[n]}" \
      "${nic_socket[n]}" "${nic_socket[n]}"
    (( n == last )) && printf '\n' || printf ',\n'
  done
  printf ' ],\n "gpu_nic": [\n%s\n ],\n "gpu_gpu": [\n%s\n ],\n' "$gpu_nic_json" "$gpu_gpu_json"
  printf ' "pci_bridges_missing": false,\n "warnings": []\n}\n'
}

for (( h = 1; h <= hosts; h++ )); do
  printf -v file '%s/dgx%03d.json' "$out" "$h"
  node_json "$h" >"$file"
done
echo "wrote $hosts node files to $out"
