#!/usr/bin/env bash
# Captures real forwarding tables for the routing tests: ibsim serves a fabric, OpenSM routes
# it with one engine, and the real dump_fts and ibnetdiscover record the tables and the
# fabric (with the LIDs OpenSM gave) in the same sweep.
#   usage: make-lfts.sh FABRIC.topo ENGINE OUT_PREFIX
#   writes OUT_PREFIX.ibnetdiscover and OUT_PREFIX.<ENGINE>.lfts
#   KEEP_WORK=1 keeps the work directory (OpenSM log, dumps); OSM_ARGS adds OpenSM options (-V).
# Needs ibsim, opensm, dump_fts, ibnetdiscover and libumad2sim (see ../shared/reference/ibsim.md).
# Kills only the processes it started.
set -euo pipefail
topo=$(realpath "${1:?usage: $0 FABRIC.topo ENGINE OUT_PREFIX}")
engine=${2:?engine: minhop, updn, ftree}
out=$(realpath -m "${3:?out prefix}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/../../integration/ibsim_env.sh"
why=$(ibsim_env_check) || { echo "make-lfts: $why" >&2; exit 77; }
for tool in dump_fts ibnetdiscover; do
  command -v "$tool" >/dev/null || { echo "make-lfts: $tool not installed" >&2; exit 77; }
done

work=$(mktemp -d)
cleanup() {
  ibsim_env_stop
  if [[ -n ${KEEP_WORK:-} ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# The SM and the tools attach at the first CA of the file (ibsim_env's default).
IBSIM_ENV_OSM_ARGS=${OSM_ARGS:-} IBSIM_ENV_TIMEOUT=120 ibsim_env_start "$work" "$topo" "$engine" || exit 1
# The engine that actually routed (ftree falls back to minhop silently on a non-tree).
ibsim_env_routing >&2 || true

ibsim_env_run ibnetdiscover >"$out.ibnetdiscover"
ibsim_env_run dump_fts >"$out.$engine.lfts"
echo "wrote $out.ibnetdiscover and $out.$engine.lfts" >&2
