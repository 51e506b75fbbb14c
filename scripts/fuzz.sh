#!/usr/bin/env bash
# Fuzz every reader: scripts/fuzz.sh BUILD_DIR SECONDS_EACH [HARNESS...] (default: all). BUILD_DIR was configured with
# -DSLURMTOPO_FUZZ=ON (scripts/test-sanitizers.sh does it). Each harness first replays its kept
# findings (fuzz/regressions/<harness>/, every one fixed), then runs from seeds: the real data
# in ../shared, samples/ and tests/bad/. A finding stops the run and is left in
# $BUILD_DIR/fuzz-findings/<harness>/ to be fixed and kept as a regression input.
# The mutations follow FUZZ_SEED (default 1), so a short run (CI's) replays the start of a long
# one with the same seed: what a long run cleared, a short run cannot find. FUZZ_SEED=0 lets
# libFuzzer pick a new seed each run, to search further. FUZZ_JOBS harnesses run at once (default:
# one per CPU), each for its full SECONDS_EACH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:?usage: scripts/fuzz.sh BUILD_DIR SECONDS_EACH}
seconds=${2:-10}
seed=${FUZZ_SEED:-1}
# The sanitizers' settings, also when this runs without scripts/test-sanitizers.sh.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}  # libibnetdisc's own leak

# Seconds one input may take before it counts as a hang. libhwloc itself needs seconds (tens
# under ASan on a loaded machine) on some damaged exports — lstopo takes as long on them — and
# libibnetdisc allocates (and ASan clears) what a damaged cache's header claims, up to a GB; their
# harnesses wait longer, and a real hang still shows.
declare -A timeouts=([hwloc_xml_fuzzer]=120 [ibnd_cache_fuzzer]=60)
# libibnetdisc leaks what it had loaded when a cache fails to rebuild (scripts/lsan.supp); one
# run is one load, but a fuzzing process loads thousands, so that harness gets more memory.
declare -A rss_limits=([ibnd_cache_fuzzer]=8192)
shared=../shared

# harness → the seed files for it (globs relative to the repository).
declare -A seeds=(
  [ibnetdiscover_text_fuzzer]="$shared/fabrics/public/*/*.topo $shared/fabrics/public/*/*.out $shared/fabrics/public/*/*.topofile $shared/fabrics/public/superbench/*ibnetdiscover.txt samples/*.topo samples/*.ibnetdiscover tests/bad/fabric/*"
  [snapshot_fuzzer]="tests/bad/snapshot/*"
  [node_json_fuzzer]="samples/nodes/dgx001.json tests/bad/node-json/*"
  [hwloc_xml_fuzzer]="$shared/nodes/flux-core/*.xml $shared/nodes/hwloc/*.xml tests/bad/hwloc/*"
  [ibnd_cache_fuzzer]="samples/*.cache"
  [name_map_fuzzer]="$shared/fabrics/public/*/*.map $shared/fabrics/public/azure_cyclecloud/guid_hostnames.txt $shared/fabrics/public/azure_cyclecloud/nodes_guids.txt tests/bad/name-map/*"
  [site_config_fuzzer]="samples/site.yaml tests/bad/site-yaml/*"
  [slurm_conf_fuzzer]="samples/slurm.conf tests/bad/slurm-conf/*"
  [topology_file_fuzzer]="$shared/fabrics/public/topology_conf/* tests/bad/topology-conf/*"
  [gres_conf_fuzzer]="tests/bad/gres-conf/*"
  [hostlist_fuzzer]=""
  [forwarding_tables_fuzzer]="tests/bad/lft/*"
  [swf_workload_fuzzer]="tests/bad/swf/*"
  [iblinkinfo_text_fuzzer]="tests/data/iblinkinfo/*"
  [cable_list_fuzzer]="tests/data/plans/*.csv tests/bad/plan/*.csv"
  [ibdm_topology_fuzzer]="tests/data/ibdm/*.topo tests/bad/plan/*.topo"
  [counters_text_fuzzer]="tests/data/counters/*.txt tests/data/counters/*.pm tests/bad/counters/*"
  [fabric_text_fuzzer]="tests/data/ibnetdiscover_forms/* tests/data/iblinkinfo/*.iblinkinfo samples/*.ibnetdiscover tests/bad/fabric/*"
  [nvlink_domains_fuzzer]="$shared/fabrics/public/azure_cyclecloud/nodes_clusterUUIDs.txt"
  [topology_yaml_fuzzer]="tests/bad/topology-yaml/*"
  [node_probe_fuzzer]="$shared/nodes/measured/h200-vm/nvidia-smi-q.txt $shared/nodes/measured/h200-vm/sysfs-pci.txt"
  [block_topology_fuzzer]="$shared/fabrics/public/azure_cyclecloud/block_topology.txt"
  [nccl_tests_output_fuzzer]="tests/data/nccl/*.out tests/bad/nccl/*.out"
  [nccl_log_fuzzer]="tests/data/nccl/*.log tests/bad/nccl/*.log"
)

shift $(( $# < 2 ? $# : 2 ))
harnesses=("$@")
(( ${#harnesses[@]} )) || mapfile -t harnesses < <(printf '%s\n' "${!seeds[@]}" | sort)
for harness in "${harnesses[@]}"; do
  [[ -v seeds[$harness] ]] || { echo "fuzz.sh: no harness $harness" >&2; exit 1; }
  [[ -x $build/$harness ]] || { echo "fuzz.sh: $build/$harness is not built" >&2; exit 1; }
done

# fuzz_one HARNESS: its kept findings replayed, then SECONDS of fuzzing from its seeds. Prints
# its report into $build/fuzz-findings/HARNESS.report (the caller shows it whole, so that two
# harnesses running side by side never mix their lines); status 1 on a finding.
fuzz_one() {
  local harness=$1 bin=$build/$1 corpus findings=$build/fuzz-findings/$1 kept status=0 f
  corpus=$(mktemp -d)
  mkdir -p "$findings"
  # shellcheck disable=SC2086
  for f in ${seeds[$harness]}; do [[ -f $f ]] && cp "$f" "$corpus/" ; done
  kept=fuzz/regressions/${harness%_fuzzer}
  {
    if [[ -d $kept ]] && compgen -G "$kept/*" >/dev/null; then
      "$bin" "$kept"/* >/dev/null 2>&1 || { echo "fuzz.sh: $harness fails on a kept regression input in $kept"; status=1; }
    fi
    echo "fuzz.sh: $harness for ${seconds}s from $(ls "$corpus" | wc -l) seed files (mutation seed $seed)"
    if ! "$bin" -seed="$seed" -max_total_time="$seconds" -max_len=262144 -timeout="${timeouts[$harness]:-10}" -rss_limit_mb="${rss_limits[$harness]:-2048}" \
          -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" >"$findings.log" 2>&1; then
      echo "fuzz.sh: $harness found a crash; see $findings.log and $findings/"
      tail -40 "$findings.log"
      status=1
    fi
    grep -E '^stat::number_of_executed_units' "$findings.log" | sed "s/^/  $harness /" || true
  } >"$findings.report"
  rm -rf "$corpus"
  return $status
}

# FUZZ_JOBS harnesses at a time (default: one per CPU): each is one process on one core, so CI's
# two cores fuzz two readers at once, each for its full SECONDS.
jobs=${FUZZ_JOBS:-$(nproc)}
status=0
declare -A running=()
report() { # PID: wait for it, show its report, fold its status in
  local harness=${running[$1]}
  wait "$1" || status=1
  cat "$build/fuzz-findings/$harness.report"
  unset "running[$1]"
}
for harness in "${harnesses[@]}"; do
  while (( ${#running[@]} >= jobs )); do
    for pid in "${!running[@]}"; do
      kill -0 "$pid" 2>/dev/null || { report "$pid"; break; }
    done
    (( ${#running[@]} >= jobs )) && sleep 0.2
  done
  fuzz_one "$harness" &
  running[$!]=$harness
done
for pid in "${!running[@]}"; do report "$pid"; done
(( status == 0 )) || echo "fuzz.sh: a harness failed; its report above says which" >&2
exit $status
