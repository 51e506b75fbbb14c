#include "discover/node_probe_script.h"

namespace slurmtopo {

// Plain POSIX sh (dash runs it in the tests): compute nodes and container images are not
// guaranteed bash. No `set -e`: every read may fail and the probe goes on. Values are read with
// the `read` builtin, not $(cat), so a node with hundreds of PCI functions costs no forks.
const char* node_probe_script() {
  return R"probe(# shellcheck disable=SC2154 # rdv assigns through eval
exec 2>/dev/null  # stdout is the record (srun --output may write it straight to the file)
where=${1:-host}
missing=
miss() { missing="$missing$1
"; }
rdv() { eval "$1="; if [ -r "$2" ]; then read -r "$1" <"$2" 2>/dev/null || :; fi; }
libdirs="/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib /usr/local/cuda/lib64 /usr/local/nvidia/lib64"
oldifs=$IFS; IFS=:; for d in ${LD_LIBRARY_PATH:-}; do [ -n "$d" ] && libdirs="$libdirs $d"; done; IFS=$oldifs
echo "slurmtopo-probe 1"
echo "where $where"
echo "host ${SLURMD_NODENAME:-$(hostname -s 2>/dev/null || uname -n)}"
echo "kernel $(uname -r 2>/dev/null)"
echo "[pci]"
if [ -d /sys/bus/pci/devices ]; then
  for d in /sys/bus/pci/devices/*; do
    rdv cl "$d/class"
    case $cl in 0x02*|0x03*|0x12*) ;; *) continue ;; esac
    rdv ve "$d/vendor"; rdv de "$d/device"; rdv nu "$d/numa_node"
    rdv cs "$d/current_link_speed"; rdv cw "$d/current_link_width"
    rdv ms "$d/max_link_speed"; rdv mw "$d/max_link_width"
    # The port above it (a PCIe switch's or the root port): a Gen5 card in a Gen4 slot trains
    # at Gen4 by design, not by fault.
    up=$(cd -P "$d/.." 2>/dev/null && pwd -P); us=; uw=
    if [ -r "$up/max_link_speed" ]; then rdv us "$up/max_link_speed"; rdv uw "$up/max_link_width"; fi
    echo "${d##*/} class=$cl vendor=$ve device=$de numa=$nu link=$cs/$cw max=$ms/$mw up=$us/$uw"
  done
else miss /sys/bus/pci; fi
echo "[ib]"
if [ -d /sys/class/infiniband ]; then
  for p in /sys/class/infiniband/*/ports/*; do
    [ -d "$p" ] || continue
    dev=${p%/ports/*}; dev=${dev##*/}
    rdv st "$p/state"; rdv ph "$p/phys_state"; rdv ra "$p/rate"; rdv ll "$p/link_layer"
    rdv fw "/sys/class/infiniband/$dev/fw_ver"
    pci=$(cd -P "/sys/class/infiniband/$dev/device" 2>/dev/null && pwd -P); pci=${pci##*/}
    printf '%s\tport=%s\tstate=%s\tphys_state=%s\trate=%s\tlink_layer=%s\tpci=%s\tfw=%s\n' \
      "$dev" "${p##*/}" "$st" "$ph" "$ra" "$ll" "$pci" "$fw"
  done
else miss /sys/class/infiniband; fi
echo "[gdr]"
for f in /sys/kernel/mm/memory_peers/nv_mem/version /sys/kernel/mm/memory_peers/nv_mem_nc/version \
         /sys/kernel/mm/memory_peers/nvidia-peermem/version /sys/module/nvidia_peermem/version; do
  if [ -r "$f" ]; then rdv v "$f"; echo "$f $v"; fi
done
for m in nvidia_peermem nv_peer_mem; do if [ -d "/sys/module/$m" ]; then echo "module $m"; fi; done
if [ -r /proc/driver/nvidia/version ]; then rdv v /proc/driver/nvidia/version; echo "nvidia $v"; fi
echo "[verbs]"
if [ -d /dev/infiniband ]; then
  for f in /dev/infiniband/*; do if [ -e "$f" ]; then echo "dev ${f##*/}"; fi; done
else miss /dev/infiniband; fi
for d in $libdirs; do
  for f in "$d"/libibverbs.so*; do if [ -e "$f" ]; then echo "lib $f"; fi; done
  for f in "$d"/libibverbs/lib*-rdmav*.so; do if [ -e "$f" ]; then echo "providerlib $f"; fi; done
done
for f in /etc/libibverbs.d/*.driver; do
  if [ -r "$f" ]; then rdv v "$f"; echo "provider ${f##*/} $v"; fi
done
if command -v ibv_devices >/dev/null 2>&1; then
  ibv_devices 2>/dev/null | while read -r a b; do
    case $a in device|------|"") ;; *) echo "ibv_devices $a $b" ;; esac
  done
else miss ibv_devices; fi
echo "[cuda]"
if [ -r /usr/local/cuda/version.json ]; then
  v=; k=
  while IFS= read -r l; do
    case $l in *'"cuda"'*) k=1 ;; esac
    if [ -n "$k" ]; then
      case $l in *'"version"'*) v=${l#*'"version"'}; v=${v#*\"}; v=${v%%\"*}; break ;; esac
    fi
  done </usr/local/cuda/version.json
  echo "toolkit $v"
fi
if [ -n "${CUDA_VERSION:-}" ]; then echo "CUDA_VERSION $CUDA_VERSION"; fi
if [ -n "${NVIDIA_REQUIRE_CUDA:-}" ]; then echo "NVIDIA_REQUIRE_CUDA $NVIDIA_REQUIRE_CUDA"; fi
for f in /usr/local/cuda/compat/libcuda.so.*; do if [ -e "$f" ]; then echo "compat $f"; fi; done
for d in $libdirs; do for f in "$d"/libnccl.so.*; do if [ -e "$f" ]; then echo "nccl $f"; fi; done; done
echo "[env]"
env | while IFS= read -r l; do case $l in NCCL_*=*) echo "$l" ;; esac; done
echo "[nvidia-smi]"
if command -v nvidia-smi >/dev/null 2>&1; then
  if command -v timeout >/dev/null 2>&1; then timeout 60 nvidia-smi -q 2>&1; rc=$?; else nvidia-smi -q 2>&1; rc=$?; fi
  if [ "$rc" -ne 0 ]; then miss "nvidia-smi exit $rc"; fi
else miss nvidia-smi; fi
echo "[missing]"
printf '%s' "$missing"
echo "slurmtopo-probe-end"
)probe";
}

}  // namespace slurmtopo
