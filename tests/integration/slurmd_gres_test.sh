#!/usr/bin/env bash
# The gres.conf and NodeName lines slurmtopo emits must load in a REAL slurmd (22.05 on Debian
# 12; SLURM_ENV_RELEASE=24.11 or 26.05 runs that release from a chroot, see slurm_env.sh, and
# emits with --slurm-version set to it) on an emulated node: `slurmd -G` prints one Gres line per GPU with exactly the emitted
# Type/File/Cores/Links and no error or warning, and the node registers with slurmctld with
# its GPUs on the right sockets (`Gres=gpu:TYPE:N(S:…)`, state IDLE). Fake GPUs are /dev/null
# symlinks in a temp dir (gres.conf File= may point anywhere; --dev-dir puts them there).
# Negative controls show what slurmd does NOT catch and slurmtopo's check does. From 24.11,
# a GPU's own cores (a quarter of a socket) pass `slurmd -G` but are refused when the node
# registers: the case naming the release shows it (why 24.11+ gres.conf widens to sockets).
# A superset (Cores=0-111 for every GPU of a 2 x 56-core node) passes slurmd -G and registration
# in every release: slurmtopo's --check warns about it and exits 0.
#
#   bash tests/integration/slurmd_gres_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (no slurmd/slurmctld/munge, or not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
shared=$(dirname "$repo")/shared

skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmd slurmctld scontrol sinfo munged mungekey; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmd runs with SlurmdUser=root)"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/slurmd_gres_test.XXXXXX")
chmod 755 "$WORK" # munged wants o+x on every directory above its socket
trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }

# value KEY LINE: the value of KEY=... on a key=value line ("" if absent)
value() { grep -o "\(^\| \)$1=[^ ]*" <<<"$2" | head -n 1 | cut -d= -f2-; }

# slurmd -G output against the emitted gres.conf: one Gres line per GPU, same values.
compare_gres() { # CASE NODE GRES_CONF SLURMD_OUTPUT
  local name=$1 node=$2 conf=$3 out=$4 i=0 line got key want ok=1
  local lines=()
  mapfile -t lines < <(grep "^NodeName=" "$conf")
  if grep -Eiq 'error|warning|fatal' <<<"$out"; then
    fail "$name" "slurmd -G complained: $(grep -Ei 'error|warning|fatal' <<<"$out" | head -n 3)"
    return
  fi
  if (( $(grep -c 'Gres Name=gpu' <<<"$out") != ${#lines[@]} )); then
    fail "$name" "slurmd -G printed $(grep -c 'Gres Name=gpu' <<<"$out") Gres lines for ${#lines[@]} GPUs"
    return
  fi
  for line in "${lines[@]}"; do
    got=$(grep "Gres Name=gpu .*Index=$i " <<<"$out")
    for key in Type File Cores Links; do
      want=$(value "$key" "$line")
      [[ -z $want ]] && continue
      if [[ $(value "$key" "$got") != "$want" ]]; then
        fail "$name" "GPU $i: emitted $key=$want, slurmd -G says $key=$(value "$key" "$got")"
        ok=0
      fi
    done
    i=$(( i + 1 ))
  done
  (( ok )) && pass "$name: slurmd -G matches the emitted gres.conf" "${#lines[@]} GPUs on $node"
}

# One emulated node of the class in JSON; the emitted files go into a slurm_env dir.
run_case() { # NAME NODE_JSON NODE EXPECTED_GRES [SLURM_VERSION (default: the release running)]
  local name=$1 json=$2 node=$3 expect=$4 version=${5:-$SLURM_ENV_RELEASE} refuse=${REFUSED:-0}
  local d=$WORK/$name attrs out f gres state why
  mkdir -p "$d/dev" "$d/env"
  if ! "$SLURMTOPO" emit gres --node-class "$node=$json" --slurm-version "$version" --dev-dir "$d/dev" \
       -o "$d/env/gres.conf" 2>"$d/emit.err" ||
     ! "$SLURMTOPO" emit nodes --node-class "$node=$json" --slurm-version "$version" -o "$d/nodes.conf" 2>>"$d/emit.err"; then
    fail "$name" "slurmtopo refused: $(cat "$d/emit.err")"
    return
  fi
  if (( ${WIDE:-0} )); then
    # Every GPU bound to all 112 cores, a superset of its own (whole sockets, so every release's
    # socket rule holds): slurmtopo's check warns and passes; slurmd -G and registration below
    # show what Slurm does with it.
    sed -i -E 's/ Cores=[0-9][0-9,-]*/ Cores=0-111/' "$d/env/gres.conf"
    local check rc
    check=$("$SLURMTOPO" emit gres --node-class "$node=$json" --slurm-version "$version" --check "$d/env/gres.conf" 2>&1)
    rc=$?
    if (( rc == 0 )) && (( $(grep -c "is more than the GPU's own cores" <<<"$check") == 4 )); then
      pass "$name: slurmtopo --check warns about Cores=0-111, exit 0" "$(grep -m1 -o 'GPU 0 .*own cores [0-9,-]*' <<<"$check")"
    else
      fail "$name" "slurmtopo --check on Cores=0-111 exited $rc: $check"
    fi
  fi
  while read -r f; do ln -sfn /dev/null "$f"; done < <(grep -o 'File=/[^ ]*' "$d/env/gres.conf" | cut -d= -f2)
  attrs=$(grep '^NodeName=' "$d/nodes.conf" | head -n 1 | cut -d' ' -f2-)
  echo "$node" >"$d/nodelist"
  echo "SwitchName=s1 Nodes=$node" >"$d/topology.conf"
  # slurm_env.sh's knobs: every node line gets the emitted attributes.
  # shellcheck disable=SC2034
  SLURM_ENV_NODE_ATTRS=$attrs
  # shellcheck disable=SC2034
  SLURM_ENV_EXTRA_CONF=$(grep '^GresTypes=' "$d/nodes.conf")
  if ! slurm_env_start "$d/env" "$d/nodelist" "$d/topology.conf"; then
    fail "$name" "slurmctld did not start"
    slurm_env_stop
    return
  fi
  mkdir -p "$d/env/spool/$node" # 24.11+ slurmd -G opens its spool dir (its socket, hwloc cache)
  out=$(slurmd -G -N "$node" -f "$SLURM_CONF" 2>&1)
  printf '%s\n' "$out" >"$d/slurmd-G.out"
  echo "--- $name: slurmd -G"; grep 'Gres Name=gpu' <<<"$out" | sed 's/^/    /'
  compare_gres "$name" "$node" "$d/env/gres.conf" "$out"

  if (( refuse )); then
    # Registration refused: the node never becomes IDLE, and slurmctld says why.
    SLURM_ENV_TIMEOUT=8 slurm_env_start_slurmd "$node" 2>/dev/null
    gres=$(scontrol show node "$node" | grep -o ' Gres=[^ ]*' | cut -c2-)
    state=$(scontrol show node "$node" | grep -o 'State=[^ ]*' | head -n 1)
    why=$(grep -h "doesn't match socket boundaries" "$d"/env/slurmctld.log 2>/dev/null | sed 's/^\[[^]]*\] //' | head -n 1)
    echo "--- $name: scontrol show node: $gres $state"
    if [[ $state != State=IDLE* && -n $why ]]; then
      pass "$name: Slurm $SLURM_ENV_VERSION refuses a GPU's own cores at registration" "$state: $why"
    else
      fail "$name" "Slurm $SLURM_ENV_VERSION registered the node as $state ${why:+($why)}: per-GPU Cores= no longer refused, socket widening can go"
    fi
  elif slurm_env_start_slurmd "$node"; then
    gres=$(scontrol show node "$node" | grep -o ' Gres=[^ ]*' | cut -c2-)
    state=$(scontrol show node "$node" | grep -o 'State=[^ ]*' | head -n 1)
    echo "--- $name: scontrol show node: $gres $state"
    if [[ $gres == "Gres=$expect" && $state == State=IDLE* ]]; then
      pass "$name: registered" "$gres $state"
    else
      fail "$name" "registered as $gres $state, expected Gres=$expect State=IDLE ($(grep -h 'error' "$d"/env/slurmctld.log | tail -n 2))"
    fi
  else
    fail "$name" "slurmd did not register: $(tail -n 3 "$d"/env/slurmd.*.log 2>/dev/null)"
  fi

  [[ $name == "h100-nvlink-$SLURM_ENV_RELEASE" ]] && negative_controls "$d" "$node" "$json"
  slurm_env_stop
}

# What slurmd lets through and slurmtopo's check does not (and one both catch).
negative_controls() { # CASE_DIR NODE NODE_JSON
  local d=$1 node=$2 json=$3 good out
  good=$(cat "$d/env/gres.conf")
  # -1 at the wrong Links index: GPU 1 claims to be GPU 0.
  # (Patterns need a digit after '=': the header comment mentions "Cores=" too.)
  sed -i '0,/ Links=[0-9][0-9]*,-1,/s// Links=-1,6,/' "$d/env/gres.conf"
  out=$(slurmd -G -N "$node" -f "$SLURM_CONF" 2>&1)
  if ! grep -Eiq 'error|warning|fatal' <<<"$out" && (( $(grep -c 'Gres Name=gpu' <<<"$out") == 4 )); then
    pass "control: slurmd -G accepts Links with -1 at the wrong index silently" \
      "$(grep 'Index=1 ' <<<"$out" | grep -o 'Links=[^ ]*')"
  else
    fail "control" "slurmd -G no longer accepts -1 at the wrong index silently: $(head -n 3 <<<"$out")"
  fi
  out=$("$SLURMTOPO" emit gres --node-class "$node=$json" --check "$d/env/gres.conf" 2>&1)
  if (( $? == 2 )) && grep -q 'needs -1 at index 1' <<<"$out"; then
    pass "control: slurmtopo's check refuses it" "$(grep -m1 'needs -1' <<<"$out")"
  else
    fail "control" "slurmtopo --check did not refuse -1 at the wrong index: $out"
  fi
  # Thread ids in Cores= (nvidia-smi's CPU affinity): both refuse.
  printf '%s\n' "$good" | sed '0,/ Cores=[0-9][0-9-]*/s// Cores=200-210/' >"$d/env/gres.conf"
  out=$(slurmd -G -N "$node" -f "$SLURM_CONF" 2>&1)
  if grep -q 'Invalid GRES data for gpu, Cores=200-210' <<<"$out" &&
     ! "$SLURMTOPO" emit gres --node-class "$node=$json" --check "$d/env/gres.conf" >/dev/null 2>&1; then
    pass "control: thread ids in Cores= refused by slurmd and by slurmtopo's check"
  else
    fail "control" "thread ids in Cores=: slurmd said: $(grep -i error <<<"$out" | head -n 2)"
  fi
  # GPU 0 bound to the other socket's cores: well-formed, so slurmd takes it; the check compares
  # it with the export and refuses.
  printf '%s\n' "$good" | sed '0,/ Cores=[0-9][0-9-]*/s// Cores=56-69/' >"$d/env/gres.conf"
  out=$(slurmd -G -N "$node" -f "$SLURM_CONF" 2>&1)
  local check
  check=$("$SLURMTOPO" emit gres --node-class "$node=$json" --check "$d/env/gres.conf" 2>&1)
  if ! grep -Eiq 'error|fatal' <<<"$out" && grep -q 'Index=0 .*Cores=56-69' <<<"$out" &&
     grep -q 'GPU 0 (File=[^)]*) Cores=56-69 but the GPU is local to cores' <<<"$check"; then
    pass "control: GPU 0 on the wrong socket: slurmd -G takes it, slurmtopo's check refuses it" \
      "$(grep -m1 -o 'GPU 0 (File=[^)]*) Cores=56-69 but the GPU is local to cores [0-9,-]*' <<<"$check")"
  else
    fail "control" "wrong socket: slurmd said '$(grep 'Index=0 ' <<<"$out")', slurmtopo said: $check"
  fi
  printf '%s\n' "$good" >"$d/env/gres.conf"
}

# --- inputs ------------------------------------------------------------------------------
# 1. HGX H100 4-GPU (Dell XE8640) from its real hwloc export: NVLink matrix, SNC4 so each GPU's
#    cores are a quarter of a socket (widened to the socket for 25.11).
ipa20=$shared/nodes/flux-core/ipa20.xml
if [[ -f $ipa20 ]] && "$SLURMTOPO" discover node --xml "$ipa20" --hostname gpu001 -o "$WORK/ipa20.json" 2>/dev/null; then
  run_case "h100-nvlink-$SLURM_ENV_RELEASE" "$WORK/ipa20.json" gpu001 "gpu:h100:4(S:0-1)"
  # Cores=0-111 for every GPU: slurmd -G takes it and the node registers IDLE (issue 26).
  WIDE=1 run_case "h100-cores-0-111-$SLURM_ENV_RELEASE" "$WORK/ipa20.json" gpu001 "gpu:h100:4(S:0-1)"
  if [[ $SLURM_ENV_RELEASE == 22.05 ]]; then
    run_case h100-nvlink-25.11 "$WORK/ipa20.json" gpu001 "gpu:h100:4(S:0-1)" 25.11
  else
    # The same GPUs with their own cores (42-55 for GPU 0), as 22.05's gres.conf keeps them.
    REFUSED=1 run_case "h100-own-cores-on-$SLURM_ENV_RELEASE" "$WORK/ipa20.json" gpu001 "" 22.05
  fi
else
  echo "NOTE: $ipa20 (or slurmtopo discover node) not available: the XE8640 cases are not run"
fi

# 2. DGX H100-like 8 GPUs on 2 sockets, NVSwitch (no Links): the bundled sample.
run_case dgx-8gpu-no-links "$repo/samples/nodes/dgx001.json" dgx001 "gpu:h100:8(S:0-1)"

# 3. Two NVLink-bridged GPUs, both on socket 1: the registered Gres must say S:1 only.
cat >"$WORK/pair.json" <<'EOF'
{"format": "slurmtopo-node", "version": 1, "hostname": "pair01", "source": "slurmd_gres_test.sh",
 "sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "numa_nodes": 2, "memory_mib": 257000,
 "gpus": [
  {"index": 0, "vendor": "nvidia", "model": "NVIDIA H100 NVL", "slurm_type": "h100nvl", "pci_busid": "0000:ca:00.0",
   "device_file": "/dev/nvidia0", "cores": [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31],
   "numa_node": 1, "socket": 1, "nvlinks": [-1, 12]},
  {"index": 1, "vendor": "nvidia", "model": "NVIDIA H100 NVL", "slurm_type": "h100nvl", "pci_busid": "0000:e1:00.0",
   "device_file": "/dev/nvidia1", "cores": [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31],
   "numa_node": 1, "socket": 1, "nvlinks": [12, -1]}
 ],
 "nics": [{"name": "mlx5_0", "node_guid": "0x0c42a10300aa0001", "port_guids": ["0x0c42a10300aa0001"],
           "pci_busid": "0000:c9:00.0", "link_layer": "InfiniBand", "numa_node": 1, "socket": 1}],
 "gpu_nic": [["PIX"], ["NODE"]],
 "gpu_gpu": [["X", "NODE"], ["NODE", "X"]],
 "pci_bridges_missing": false, "warnings": []}
EOF
run_case pair-socket1 "$WORK/pair.json" pair01 "gpu:h100nvl:2(S:1)"

echo "passed $passed, failed $failed"
(( failed == 0 ))
