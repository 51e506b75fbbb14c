#!/usr/bin/env bash
# Reading every port's counters live, next to the real ibqueryerrors and perfquery on the same
# simulated fabric. Like ibsim_discovery_bench.sh: the whole process (wall, peak RSS) of each,
# as an admin runs it, under ibsim + OpenSM.
#
#   bash bench/live/counters_bench.sh /path/to/slurmtopo [RUNS]
#
# Serves the 3-level fat tree of radix 16 (1,024 HCAs, 320 switches, 3,072 cables), sets a few
# counters through ibsim's console, and prints a Markdown table of the median of RUNS (default
# 5). First each tool sweeps the fabric itself (ibqueryerrors runs libibnetdisc, as slurmtopo
# does), then each reads libibnetdisc's cache of it instead (ibqueryerrors --load-cache,
# slurmtopo discover counters --fabric): the counters alone. `perfquery -a -l` is run once per
# switch and per HCA port, as a site's script does.
set -uo pipefail
export LC_ALL=C
SLURMTOPO=$(cd "$(dirname "${1:?usage: $0 SLURMTOPO [RUNS]}")" && pwd)/$(basename "$1")
runs=${2:-5}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/../../tests/integration/ibsim_env.sh"
why=$(ibsim_env_check) || { echo "counters_bench: $why" >&2; exit 77; }
[[ -x /usr/bin/time ]] || { echo "counters_bench: needs GNU time (/usr/bin/time)" >&2; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/counters_bench.XXXXXX")
trap 'ibsim_env_stop; rm -rf "$work"' EXIT

"$SLURMTOPO" generate fattree --levels 3 --radix 16 --speed HDR --format ibsim -o "$work/fabric.net" || exit 1
ibsim_env_start "$work/sim" "$work/fabric.net" ftree || exit 1
first_switch=$(grep -m1 -oE '^Switch[[:space:]]+[0-9]+[[:space:]]+"[^"]+"' "$work/fabric.net" | sed -E 's/.*"([^"]+)"/\1/')
ibsim_env_console "PerformanceSet \"$first_switch\"[1] PortCounters.SymbolErrorCounter=500"
ibsim_env_run ibnetdiscover --cache "$work/fabric.cache" >"$work/fabric.topo" 2>/dev/null

measure() { # LABEL CMD...: "| LABEL | median s | max RSS MB |"
  local label=$1; shift
  local i walls=() rss=0 line
  for (( i = 0; i < runs; i++ )); do
    ibsim_env_run /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt"
    [[ -s $work/time.txt ]] || { echo "counters_bench: $label failed: $(tail -n 3 "$work/err.txt")" >&2; return 1; }
    read -r wall kb < <(tail -n 1 "$work/time.txt")
    walls+=("$wall")
    (( kb > rss )) && rss=$kb
  done
  line=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
  printf '| %s | %s s | %d MB |\n' "$label" "$line" $(( (rss + 1023) / 1024 ))
}

# perfquery of every switch (all ports) and every HCA port, one process each, as a script does.
awk '$1 == "Switch" { for (i = 1; i <= NF; i++) if ($i == "lid") { print "-a -l " $(i + 1); break } }
     $1 == "Ca" { ca = 1; next } ca && /^\[/ { if (match($0, /# lid [0-9]+/)) print substr($0, RSTART + 6, RLENGTH - 6) " 1" }
     /^$/ { ca = 0 }' "$work/fabric.topo" >"$work/perfquery.args"
cat >"$work/perfquery-all.sh" <<SH
while read -r args; do perfquery \$args >/dev/null || exit 1; done <"$work/perfquery.args"
SH

echo "| 3-level fat tree k=16: 1,024 HCAs, 320 switches, 3,072 cables (median of $runs) | wall | peak RSS |"
echo "|---|---|---|"
measure "ibqueryerrors (its own sweep, then one PMA query at a time)" ibqueryerrors
measure "slurmtopo discover fabric --counters (sweep, every cabled port both ends, model, findings)" \
  "$SLURMTOPO" discover fabric --counters
measure "ibqueryerrors --load-cache (no sweep)" ibqueryerrors --load-cache "$work/fabric.cache"
measure "slurmtopo discover counters --fabric (the same cache, no sweep)" \
  "$SLURMTOPO" discover counters --fabric "$work/fabric.cache"
# What loading the cache alone costs each (libibnetdisc's ibnd_load_fabric in both), so the
# reads themselves can be told apart.
measure "ibnetdiscover --load-cache (the cache alone)" ibnetdiscover --load-cache "$work/fabric.cache"
measure "slurmtopo inspect --fabric (the cache alone)" "$SLURMTOPO" inspect --fabric "$work/fabric.cache"
measure "perfquery, one run per switch (-a -l) and per HCA port ($(wc -l <"$work/perfquery.args") runs)" \
  bash "$work/perfquery-all.sh"
