#!/usr/bin/env bash
# Live discovery time and memory on a simulated fabric, next to the real ibnetdiscover and
# dump_fts on the same fabric. Not Google Benchmark: the sweep needs ibsim and OpenSM running,
# and what matters is the whole process (wall time, peak RSS) as an admin would see it.
#
#   bash bench/live/ibsim_discovery_bench.sh /path/to/slurmtopo [RUNS]
#
# Serves a full 3-level fat tree of radix 16 (1,024 HCAs, 320 switches, 3,072 cables) from
# `slurmtopo generate --format ibsim`, routed by OpenSM ftree, and prints a Markdown table: the
# median of RUNS (default 5) wall times and the largest peak RSS (GNU time). Kills only the
# processes it started (tests/integration/ibsim_env.sh).
set -uo pipefail
export LC_ALL=C
SLURMTOPO=$(cd "$(dirname "${1:?usage: $0 SLURMTOPO [RUNS]}")" && pwd)/$(basename "$1")
runs=${2:-5}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/../../tests/integration/ibsim_env.sh"
why=$(ibsim_env_check) || { echo "ibsim_discovery_bench: $why" >&2; exit 77; }
[[ -x /usr/bin/time ]] || { echo "ibsim_discovery_bench: needs GNU time (/usr/bin/time)" >&2; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_bench.XXXXXX")
trap 'ibsim_env_stop; rm -rf "$work"' EXIT

"$SLURMTOPO" generate fattree --levels 3 --radix 16 --speed HDR --format ibsim -o "$work/fabric.net" || exit 1
t=$(date +%s%N)
ibsim_env_start "$work/sim" "$work/fabric.net" ftree || exit 1
echo "OpenSM ftree: SUBNET UP after $(( ($(date +%s%N) - t) / 1000000 )) ms ($(ibsim_env_routing))" >&2

# measure LABEL CMD...: RUNS runs of CMD as a fabric client; prints "LABEL|median s|max RSS MB".
measure() {
  local label=$1; shift
  local i walls=() rss=0 line
  for (( i = 0; i < runs; i++ )); do
    ibsim_env_run /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" ||
      { echo "ibsim_discovery_bench: $label failed: $(tail -n 3 "$work/err.txt")" >&2; return 1; }
    read -r wall kb <"$work/time.txt"
    walls+=("$wall")
    (( kb > rss )) && rss=$kb
  done
  line=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
  printf '| %s | %s s | %d MB |\n' "$label" "$line" $(( (rss + 1023) / 1024 ))
}

echo "| 3-level fat tree k=16: 1,024 HCAs, 320 switches, 3,072 cables (median of $runs) | wall | peak RSS |"
echo "|---|---|---|"
measure "ibnetdiscover" ibnetdiscover
measure "slurmtopo discover fabric (sweep + model + inspect)" "$SLURMTOPO" discover fabric
measure "dump_fts (its own sweep + every LFT)" dump_fts
measure "slurmtopo discover fabric --routes --save (sweep + every LFT + snapshot)" \
  "$SLURMTOPO" discover fabric --routes --save "$work/cluster.json"
echo "snapshot with tables: $(( $(stat -c %s "$work/cluster.json") / 1024 )) KB" >&2
