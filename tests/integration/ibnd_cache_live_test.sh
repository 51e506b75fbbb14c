#!/usr/bin/env bash
# The libibnetdisc cache reader against the real thing: ibsim serves samples/ibsim-small.net,
# OpenSM assigns LIDs, the real ibnetdiscover writes a cache and its text in the same sweep,
# and `slurmtopo inspect --json` must say the same about both.
#   usage: ibnd_cache_live_test.sh SLURMTOPO
#   SLURMTOPO_SAVE_SAMPLES=DIR also copies the cache and text there (how samples/ was made).
# Exit 77 (skipped) when ibsim, OpenSM, ibnetdiscover or umad2sim is not installed.
set -euo pipefail

slurmtopo=${1:?usage: $0 SLURMTOPO}
net=$(cd "$(dirname "$0")/../../samples" && pwd)/ibsim-small.net

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || { echo "skip: $why"; exit 77; }
for tool in ibnetdiscover jq; do
  command -v "$tool" >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done

work=$(mktemp -d)
trap 'ibsim_env_stop; rm -rf "$work"' EXIT
cd "$work"

# The SM gives the ports LIDs, as on a real fabric (DR sweeps alone would leave them 0).
ibsim_env_start "$work/sim" "$net" minhop || exit 1
ibsim_env_run ibnetdiscover --cache "$work/ibsim-small.cache" >ibsim-small.ibnetdiscover

if [[ -n ${SLURMTOPO_SAVE_SAMPLES:-} ]]; then
  cp ibsim-small.cache ibsim-small.ibnetdiscover "$SLURMTOPO_SAVE_SAMPLES"/
fi

# Both files share a stem, so they get the same fabric name; only the path (source) differs.
# The summary (--json) and the snapshot (--save: every node and cable field) must both agree.
# The cache also holds each port's PortInfo (LinkSpeedSupported, LinkWidthSupported), which
# ibnetdiscover's text does not print: the snapshot keeps it (version 3), so those keys and the
# version are compared apart.
without_source='walk(if type == "object" then del(.source) else . end)'
# The text's header records when the sweep ran ("captured"); the cache does not.
without_portinfo='walk(if type == "object" then del(.source, .captured, .speed_supported, .width_supported) else . end) | del(.version)'
for form in cache ibnetdiscover; do
  "$slurmtopo" inspect --fabric "ibsim-small.$form" --json --save "snapshot-$form.json" |
    jq -S "$without_source" >"inspect-$form.json"
  jq -S "$without_portinfo" "snapshot-$form.json" >"fabric-$form.json"
done
ends=$(jq '[.fabrics[0].links[] | .a, .b] | length' snapshot-cache.json)
known=$(jq '[.fabrics[0].links[] | .a, .b | select(.speed_supported != null)] | length' snapshot-cache.json)
if ((ends == 0 || known != ends)); then
  echo "FAIL: the cache's PortInfo gave a supported speed on $known of $ends cable ends"
  exit 1
fi
[[ -s inspect-cache.json && -s fabric-cache.json ]] || { echo "inspect printed nothing"; exit 1; }
status=0
for what in inspect fabric; do
  if ! diff -u "$what-ibnetdiscover.json" "$what-cache.json"; then
    echo "FAIL: $what of the cache and of the text of the same sweep differ"
    status=1
  fi
done
((status == 0)) || exit 1
echo "ok: cache and text agree ($(jq '.fabrics[0].nodes | length' fabric-cache.json) nodes," \
  "$(jq '.fabrics[0].links | length' fabric-cache.json) cables)"
