#!/usr/bin/env bash
# Rail planes as separate subnets, live: `slurmtopo generate railopt --planes 2` writes one
# ibsim net file per plane; each plane is served by its own ibsim and routed by its own OpenSM,
# swept live (`discover fabric --save`) and by ibnetdiscover, and the planes given together
# must build one joined model — the topology.conf of the whole rail-optimized fabric, one root.
# The same dump twice is refused, naming both files.
#
#   bash tests/integration/ibsim_planes_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM/ibnetdiscover missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
command -v ibnetdiscover >/dev/null || skip "ibnetdiscover not installed"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_planes_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
body() { grep -v '^#' "$1"; }  # the switches, without the header naming the inputs

spec=(railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --speed HDR)
"$SLURMTOPO" generate "${spec[@]}" -o "$WORK/whole.topo" || { fail "generate whole" "exit $?"; exit 1; }
"$SLURMTOPO" generate "${spec[@]}" --planes 2 -o "$WORK/rail" || { fail "generate --planes 2" "exit $?"; exit 1; }
for k in 1 2; do
  [[ -s $WORK/rail-plane$k.topo && -s $WORK/rail-plane$k.net ]] && pass "plane $k: a dump and an ibsim net file" \
    || fail "plane $k files" "$(ls "$WORK")"
done
"$SLURMTOPO" emit topology --fabric "$WORK/whole.topo" -o "$WORK/whole.conf" 2>/dev/null

# Each plane: its own ibsim and OpenSM, swept live and by ibnetdiscover.
for k in 1 2; do
  IBSIM_ENV_HOST=""
  if ! ibsim_env_start "$WORK/sim$k" "$WORK/rail-plane$k.net" minhop; then
    fail "plane $k: ibsim + OpenSM" "no SUBNET UP"; ibsim_env_stop; continue
  fi
  pass "plane $k: its own OpenSM brought the subnet up"
  ibsim_env_run "$SLURMTOPO" discover fabric --save "$WORK/live$k.json" >/dev/null 2>"$WORK/live$k.err" \
    && pass "plane $k: live sweep" || fail "plane $k: live sweep" "$(tail -n 3 "$WORK/live$k.err")"
  ibsim_env_run ibnetdiscover >"$WORK/swept$k.topo" 2>/dev/null \
    && pass "plane $k: ibnetdiscover" || fail "plane $k: ibnetdiscover" "exit $?"
  ibsim_env_stop
done

"$SLURMTOPO" emit topology --fabric "$WORK/live1.json" --fabric "$WORK/live2.json" -o "$WORK/live.conf" \
  >"$WORK/live.out" 2>&1
if [[ -s $WORK/live.conf ]] && diff <(body "$WORK/whole.conf") <(body "$WORK/live.conf") >"$WORK/live.diff"; then
  pass "live planes joined: the whole fabric's topology.conf"
else
  fail "live planes joined" "$(head -n 20 "$WORK/live.diff" "$WORK/live.out")"
fi
"$SLURMTOPO" emit topology --fabric "$WORK/swept1.topo" --fabric "$WORK/swept2.topo" -o "$WORK/swept.conf" \
  >"$WORK/swept.out" 2>&1
if [[ -s $WORK/swept.conf ]] && diff <(body "$WORK/whole.conf") <(body "$WORK/swept.conf") >"$WORK/swept.diff"; then
  pass "ibnetdiscover planes joined: the whole fabric's topology.conf"
else
  fail "ibnetdiscover planes joined" "$(head -n 20 "$WORK/swept.diff" "$WORK/swept.out")"
fi
# inspect says the two sweeps were joined as rail planes of one cluster, in text and JSON.
"$SLURMTOPO" inspect --fabric "$WORK/swept1.topo" --fabric "$WORK/swept2.topo" > "$WORK/inspect.txt" 2>&1
"$SLURMTOPO" inspect --fabric "$WORK/swept1.topo" --fabric "$WORK/swept2.topo" --json > "$WORK/inspect.json" 2>&1
if grep -q '^rail planes joined (the same hosts on each, one cluster): swept1 + swept2$' "$WORK/inspect.txt" &&
   tr -d ' \n' < "$WORK/inspect.json" | grep -q '"planes":\[\["swept1","swept2"\]\]'; then
  pass "inspect: the sweeps joined as rail planes (text and JSON)"
else
  fail "inspect planes" "$(grep -i plane "$WORK/inspect.txt"; grep -A3 '"planes"' "$WORK/inspect.json")"
fi
if "$SLURMTOPO" emit topology --fabric "$WORK/swept1.topo" --fabric "$WORK/swept1.topo" -o "$WORK/twice.conf" \
  >"$WORK/twice.out" 2>&1; then
  fail "the same dump twice" "accepted"
elif grep -q "the same dump given twice" "$WORK/twice.out" && [[ ! -e $WORK/twice.conf ]]; then
  pass "the same dump twice is refused, naming both files"
else
  fail "the same dump twice" "$(cat "$WORK/twice.out")"
fi

echo "$passed passed, $failed failed"
(( failed == 0 ))
