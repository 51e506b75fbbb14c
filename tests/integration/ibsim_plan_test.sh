#!/usr/bin/env bash
# Cabling against the plan, live: ibsim serves a generated fabric with two host cables swapped
# at a leaf and one moved to a free port (generate --swap-cables, --move-cable); the plan is the
# same fabric as generated without them. `discover fabric --plan` must name both faults with
# their fix and nothing else; against a plan equal to the fabric it names nothing. Then the same
# with the plan as a cable list and a unit cabled one port off, and with ibutils' demo ibdm
# topology file as the plan.
#
#   bash tests/integration/ibsim_plan_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_plan_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
cd "$WORK" || exit 1

gen=(generate railopt --scalable-units 2 --hosts-per-su 4 --rails 1 -k 16 --speed HDR)
"$SLURMTOPO" "${gen[@]}" -o plan.topo || { fail "generate the plan" "exit $?"; exit 1; }
"$SLURMTOPO" "${gen[@]}" --swap-cables 'su1-rail0[1],su1-rail0[2]' --move-cable 'su2-rail0[3],su2-rail0[12]' \
  --format ibsim -o fabric.net || { fail "generate the fabric" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim" fabric.net minhop || { fail "ibsim + OpenSM" "no SUBNET UP"; exit 1; }

ibsim_env_run "$SLURMTOPO" discover fabric --plan "$WORK/plan.topo" --save "$WORK/swept.json" >live.txt 2>live.err
rc=$?
findings=$(grep -E '^  plan-' live.txt)
if (( rc != 0 )); then
  fail "discover fabric --plan" "exit $rc: $(cat live.err)"
elif [[ $(grep -c . <<<"$findings") != 2 ]]; then
  fail "discover fabric --plan: two findings" "$findings"
else
  pass "discover fabric --plan: two findings"
fi
grep -q '^  plan-swapped-cables  su1-rail0 ports 1 and 2: .*: swap the cables in su1-rail0 ports 1 and 2$' live.txt &&
  pass "the swap, with the ports to swap" || fail "swap" "$findings"
grep -q '^  plan-wrong-port  su2-rail0\[3\] - dgx007 mlx5_0: .*: move the cable in su2-rail0 port 12 to port 3$' live.txt &&
  pass "the moved cable, with where it goes back" || fail "move" "$findings"

# The sweep saved is the fabric as it is: as a plan for itself, nothing to say.
"$SLURMTOPO" inspect --fabric "$WORK/swept.json" --plan "$WORK/swept.json" >same.txt 2>&1
if grep -q 'cabling plan (.*): \([0-9]*\) of \1 planned cables as planned' same.txt && ! grep -q '^  plan-' same.txt; then
  pass "the sweep against itself: every cable as planned"
else
  fail "the sweep against itself" "$(grep -E 'cabling plan|plan-' same.txt)"
fi

# The plan as a cable list (generate --format plan), the fabric with unit su2 cabled one port off
# on its leaf and dgx003's only cable pulled: each su2 host cable named with the port it goes
# back to, dgx003 as a device gone, nothing else.
ibsim_env_stop
"$SLURMTOPO" "${gen[@]}" --format plan -o plan.csv || { fail "generate --format plan" "exit $?"; exit 1; }
"$SLURMTOPO" "${gen[@]}" --offset-unit su2 --remove-cable su1-rail0,dgx003 --format ibsim -o offset.net ||
  { fail "generate the offset fabric" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim-offset" offset.net minhop || { fail "ibsim + OpenSM on the offset fabric" "no SUBNET UP"; exit 1; }
ibsim_env_run "$SLURMTOPO" discover fabric --plan "$WORK/plan.csv" >offset.txt 2>offset.err
rc=$?
findings=$(grep -E '^  plan-' offset.txt)
wrong_port=$(grep -cE '^  plan-wrong-port  su2-rail0\[[1-4]\] - dgx00[5-8] mlx5_0: .*: move the cable in su2-rail0 port [1-4] to port [1-4]$' offset.txt)
if (( rc != 0 )); then
  fail "discover fabric --plan plan.csv" "exit $rc: $(cat offset.err)"
elif [[ $(grep -c . <<<"$findings") == 5 && $wrong_port == 4 ]] &&
     grep -q '^  plan-missing-device  dgx003: in the plan with 1 cable (mlx5_0 to su1-rail0\[3\])' offset.txt; then
  pass "a unit one port off and a host gone, live against a cable list"
else
  fail "a unit one port off and a host gone" "$findings"
fi

# A real ibdm topology file (ibutils' demo fat tree, tests/data/ibdm/) as the plan: ibsim serves
# the fabric it describes (generate from-plan) with two host cables swapped at a leaf, and the
# live sweep names that swap and nothing else.
ibsim_env_stop
IBSIM_ENV_HOST=""
ibdm=$here/../data/ibdm/network.topo
"$SLURMTOPO" generate from-plan "$ibdm" --swap-cables 'SL1-1[1],SL1-1[2]' --format ibsim -o demo.net ||
  { fail "generate from-plan" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim-demo" demo.net minhop || { fail "ibsim + OpenSM on the demo fabric" "no SUBNET UP"; exit 1; }
ibsim_env_run "$SLURMTOPO" discover fabric --plan "$ibdm" >demo.txt 2>demo.err
rc=$?
findings=$(grep -E '^  plan-' demo.txt)
if (( rc != 0 )); then
  fail "discover fabric --plan network.topo" "exit $rc: $(cat demo.err)"
elif [[ $(grep -c . <<<"$findings") == 1 ]] &&
     grep -q '^  plan-swapped-cables  SL1-1 ports 1 and 2: H-1 port 1 is in SL1-1 port 2 and H-2 port 1 in SL1-1 port 1' demo.txt &&
     grep -q 'cabling plan (.*network.topo): 254 of 256 planned cables as planned; 256 cables in the fabric; 1 finding' demo.txt; then
  pass "the ibdm demo plan live: the swap, and nothing else"
else
  fail "the ibdm demo plan live" "$(grep -E 'cabling plan|plan-' demo.txt)"
fi

echo "$passed passed, $failed failed"
(( failed == 0 ))
