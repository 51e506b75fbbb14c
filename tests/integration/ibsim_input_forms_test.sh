#!/usr/bin/env bash
# Every input form gives the same model, live: ibsim serves a generated fat tree whose HCAs keep
# their factory descriptions ("MT4123 ConnectX6   Mellanox Technologies"), so only the
# node-name map `generate --write-node-name-map` wrote (keyed by node GUIDs) names the hosts.
# OpenSM routes it; ibnetdiscover, ibnetdiscover -p, ibnetdiscover -s, a script(1)-style
# terminal capture of ibnetdiscover and iblinkinfo are each fed with that map to
# `slurmtopo emit topology`, and every topology.conf must be byte-identical to ibnetdiscover's,
# with every host of the map placed (docs/input-forms.md).
#
#   bash tests/integration/ibsim_input_forms_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM/infiniband-diags missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
for tool in ibnetdiscover iblinkinfo; do command -v "$tool" >/dev/null || skip "$tool not installed"; done
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_input_forms_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }

# One HCA per host: ibsim numbers an HCA's port GUID node + 1, which would be the next rail's
# node GUID on a generated multi-rail host (docs/input-forms.md).
"$SLURMTOPO" generate fattree -k 8 --hosts 24 --rails 1 --speed HDR --format ibsim --factory-hcas \
  --write-node-name-map "$WORK/hosts.map" -o "$WORK/fabric.net" || { fail "generate" "exit $?"; exit 1; }
hosts=$(grep -c '^0x' "$WORK/hosts.map")
if (( hosts == 24 )) && ! grep -q 'mlx5_' "$WORK/fabric.net"; then
  pass "generate --factory-hcas --write-node-name-map: 24 hosts in the map, none in the fabric"
else
  fail "generate --factory-hcas --write-node-name-map" "$hosts map lines; $(grep -m1 'mlx5_' "$WORK/fabric.net")"
fi

ibsim_env_start "$WORK/sim" "$WORK/fabric.net" minhop || { fail "ibsim + OpenSM" "no SUBNET UP"; exit 1; }
forms=(plain ports show script iblinkinfo)
for form in "${forms[@]}"; do mkdir -p "$WORK/$form"; done
ibsim_env_run ibnetdiscover >"$WORK/plain/fabric.txt" 2>/dev/null || fail "ibnetdiscover" "exit $?"
ibsim_env_run ibnetdiscover -p >"$WORK/ports/fabric.txt" 2>/dev/null || fail "ibnetdiscover -p" "exit $?"
ibsim_env_run ibnetdiscover -s >"$WORK/show/fabric.txt" 2>/dev/null || fail "ibnetdiscover -s" "exit $?"
ibsim_env_run iblinkinfo >"$WORK/iblinkinfo/fabric.txt" 2>/dev/null || fail "iblinkinfo" "exit $?"
ibsim_env_stop
# What `script` saves of an interactive `ibnetdiscover`: its header, the prompt and command,
# CRLF line ends, the closing prompt and its footer.
{
  echo 'Script started on 2026-12-05 07:08:41+00:00 [TERM="xterm-256color" TTY="/dev/pts/3"]'
  { echo 'root@mgmt01:~# ibnetdiscover'; cat "$WORK/plain/fabric.txt"; echo 'root@mgmt01:~# exit'; echo exit; } | sed 's/$/\r/'
  echo
  echo 'Script done on 2026-12-05 07:08:44+00:00 [COMMAND_EXIT_CODE="0"]'
} >"$WORK/script/fabric.txt"

# Each form in a directory of its own under one file name, so the headers (the command) match
# too. --nodes names every host of the map: emit warns of any the fabric cannot place.
nodes=$(sed -n 's/^0x[0-9a-f]* "\(.*\)"$/\1/p' "$WORK/hosts.map" | paste -sd, -)
for form in "${forms[@]}"; do
  (cd "$WORK/$form" && "$SLURMTOPO" emit topology --fabric fabric.txt --node-name-map ../hosts.map \
     --nodes "$nodes" -o topology.conf >emit.out 2>&1) || fail "emit from $form" "$(head -n 20 "$WORK/$form/emit.out")"
done
leaves=$(grep -c '^SwitchName=.* Nodes=' "$WORK/plain/topology.conf" 2>/dev/null)
if (( ${leaves:-0} > 0 )) && grep -q "^# $hosts nodes under $leaves leaf switches" "$WORK/plain/topology.conf" &&
   ! grep -q 'MT4123' "$WORK/plain/topology.conf" && ! grep -qi 'never' "$WORK/plain/emit.out"; then
  pass "ibnetdiscover with the map: all $hosts hosts placed, under $leaves leaves"
else
  fail "ibnetdiscover with the map" "$(cat "$WORK/plain/topology.conf" "$WORK/plain/emit.out" 2>/dev/null | head -n 20)"
fi
for form in "${forms[@]:1}"; do
  if cmp -s "$WORK/plain/topology.conf" "$WORK/$form/topology.conf"; then
    pass "$form gives ibnetdiscover's topology.conf, byte for byte"
  else
    fail "$form" "$(diff "$WORK/plain/topology.conf" "$WORK/$form/topology.conf" | head -n 20)"
  fi
done

echo "$passed passed, $failed failed"
(( failed == 0 ))
