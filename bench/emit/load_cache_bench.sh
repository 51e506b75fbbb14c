#!/usr/bin/env bash
# `slurmtopo emit topology` against `ibnetdiscover --load-cache`, side by side, on one sweep of
# an 8,192-HCA three-level fat tree (k = 32: 1,280 switches, 24,576 cables) kept the two ways
# admins keep it: the cache (`ibnetdiscover --cache`) and the text printed in the same run.
# ibnetdiscover turns the cache back into text; slurmtopo turns the text into a checked
# topology.conf (parse, model, Slurm tree, render, parse back, check). slurmtopo from the cache
# is timed too: it loads caches through libibnetdisc's own ibnd_load_fabric, as ibnetdiscover
# does, so that row is bound by the library. Not Google Benchmark: what an admin waits for is
# the whole process, exec and exit included.
#
#   bash bench/emit/load_cache_bench.sh /path/to/slurmtopo [RUNS]
#
# The cache is the real ibnetdiscover's (`--cache`), swept from ibsim serving the fabric
# `slurmtopo generate` writes, with LIDs from OpenSM (about a minute to SUBNET UP on 2 cores).
# Then the simulator is stopped and RUNS (default 11) alternated runs of each command are
# timed; prints a Markdown table with the median and best wall time and the ratio.
# Exit 77 when ibsim, OpenSM or ibnetdiscover is missing.
set -uo pipefail
export LC_ALL=C
SLURMTOPO=$(cd "$(dirname "${1:?usage: $0 SLURMTOPO [RUNS]}")" && pwd)/$(basename "$1")
runs=${2:-11}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/../../tests/integration/ibsim_env.sh"
why=$(ibsim_env_check) || { echo "load_cache_bench: $why" >&2; exit 77; }
command -v ibnetdiscover >/dev/null || { echo "load_cache_bench: ibnetdiscover not installed" >&2; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/load_cache_bench.XXXXXX")
trap 'ibsim_env_stop; rm -rf "$work"' EXIT

"$SLURMTOPO" generate fattree --levels 3 --radix 32 --speed HDR --format ibsim -o "$work/fabric.net" || exit 1
ibsim_env_start "$work/sim" "$work/fabric.net" minhop || exit 1
ibsim_env_run ibnetdiscover --cache "$work/fabric.cache" >"$work/fabric.topo" 2>/dev/null ||
  { echo "load_cache_bench: ibnetdiscover --cache failed" >&2; exit 1; }
ibsim_env_stop
cas=$(grep -c '^Ca' "$work/fabric.topo") switches=$(grep -c '^Switch' "$work/fabric.topo")
echo "cache: $(( $(stat -c %s "$work/fabric.cache") / 1024 )) KiB, $cas CAs, $switches switches" >&2

# The release is given, as a cron job or apply would: the detection (scontrol --version, then
# slurmctld -V, when installed) is timed apart below. Each command writes its own file, so that
# each run is the usual re-run: the file in place has the same bytes and is left alone. The
# "in place differs" row puts back, before each run and outside its time, a topology.conf that
# differs (written from the cache: its header names another source), which is parsed and
# compared with the new one before it is replaced, as after a re-cabling.
slurmtopo_cmd=("$SLURMTOPO" emit topology --fabric "$work/fabric.topo" --slurm-version 24.11 -o "$work/topology.conf")
ibnetdiscover_cmd=(ibnetdiscover --load-cache "$work/fabric.cache")
"${slurmtopo_cmd[@]}" >/dev/null 2>"$work/err" || { echo "load_cache_bench: slurmtopo failed: $(cat "$work/err")" >&2; exit 1; }
"$SLURMTOPO" emit topology --fabric "$work/fabric.cache" --slurm-version 24.11 -o "$work/from-cache.conf" >/dev/null 2>&1 ||
  { echo "load_cache_bench: slurmtopo failed on the cache" >&2; exit 1; }
cmp -s "$work/topology.conf" "$work/from-cache.conf" && { echo "load_cache_bench: the two files do not differ" >&2; exit 1; }
cp "$work/from-cache.conf" "$work/differs.conf.in"

# ms CMD...: one run's wall time in microseconds, output discarded. bash's own clock: a
# `date` child inside the timed span would add its exec to every run.
ms() {
  local t0 t1
  t0=${EPOCHREALTIME/./}
  "$@" >/dev/null 2>&1 || return 1
  t1=${EPOCHREALTIME/./}
  echo $(( t1 - t0 ))
}
a=() b=() c=() d=() e=()
for (( i = 0; i < runs; i++ )); do
  a+=("$(ms "${ibnetdiscover_cmd[@]}")") || exit 1
  b+=("$(ms "${slurmtopo_cmd[@]}")") || exit 1
  c+=("$(ms "$SLURMTOPO" emit topology --fabric "$work/fabric.topo" -o "$work/detected.conf")") || exit 1
  d+=("$(ms "$SLURMTOPO" emit topology --fabric "$work/fabric.cache" --slurm-version 24.11 -o "$work/from-cache.conf")") || exit 1
  cp "$work/differs.conf.in" "$work/differs.conf"
  e+=("$(ms "$SLURMTOPO" emit topology --fabric "$work/fabric.topo" --slurm-version 24.11 -o "$work/differs.conf")") || exit 1
  cmp -s "$work/differs.conf" "$work/topology.conf" || { echo "load_cache_bench: the differing file was not replaced" >&2; exit 1; }
done
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f %.1f", v[int((NR + 1) / 2)] / 1000, v[1] / 1000 }'; }
read -r a_med a_min <<<"$(stats "${a[@]}")"
read -r b_med b_min <<<"$(stats "${b[@]}")"
read -r c_med c_min <<<"$(stats "${c[@]}")"
read -r d_med d_min <<<"$(stats "${d[@]}")"
read -r e_med e_min <<<"$(stats "${e[@]}")"
echo "| 3-level fat tree k=32, one sweep: $cas CAs, $switches switches ($runs alternated runs) | median | best |"
echo "|---|---|---|"
echo "| \`ibnetdiscover --load-cache fabric.cache\` (the text again) | $a_med ms | $a_min ms |"
echo "| \`slurmtopo emit topology --fabric fabric.topo --slurm-version 24.11\` (a checked topology.conf) | $b_med ms | $b_min ms |"
echo "| the same, the release detected ($(command -v scontrol >/dev/null && echo 'installed Slurm' || echo 'none installed: the default')) | $c_med ms | $c_min ms |"
echo "| \`slurmtopo emit topology --fabric fabric.cache --slurm-version 24.11\` (libibnetdisc loads the cache) | $d_med ms | $d_min ms |"
echo "| the first row, a topology.conf in place that differs (parsed and compared, then replaced) | $e_med ms | $e_min ms |"
awk -v a="$a_med" -v b="$b_med" -v c="$c_med" 'BEGIN { printf "\nslurmtopo is %.1fx faster than ibnetdiscover --load-cache (median; %.1fx with the detection)\n", a / b, a / c }'
