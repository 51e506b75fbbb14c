#!/usr/bin/env bash
# The README's first command: install the Debian packages, build slurmtopo, and run it on the
# bundled sample SuperPOD (samples/README.md). Safe to run again: installed packages are a
# no-op for apt-get, the build is incremental, and an unchanged topology.conf is left alone.
#
#   scripts/quickstart.sh            (Debian 12 / Ubuntu 24.04; uses sudo when not root)
#   SKIP_APT=1 scripts/quickstart.sh (the packages are already there)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The build and the services the integration tests run (.ci/run adds the test-only tools:
# chroots, clang, chromium, packaging).
packages=(
  cmake ninja-build g++ pkg-config
  libibnetdisc-dev libibumad-dev libibmad-dev libboost-graph-dev libhwloc-dev libyaml-cpp-dev
  libcli11-dev libbenchmark-dev doctest-dev nlohmann-json3-dev
  infiniband-diags ibsim-utils opensm libumad2sim0
  slurmctld slurmd slurm-client munge
  hwloc jq iproute2
)

step() { printf '\n==> %s\n' "$*"; }

if [[ ${SKIP_APT:-0} != 1 ]]; then
  sudo=()
  (( EUID == 0 )) || sudo=(sudo)
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if (( ${#missing[@]} )); then
    step "installing ${#missing[@]} Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Keep the packages' postinst from starting system munge/slurmctld/slurmd: the tests start
    # their own (policy-rc.d exit 101 = "action forbidden"). An existing policy is left alone.
    policy=/usr/sbin/policy-rc.d
    if [[ ! -e $policy ]]; then
      trap '"${sudo[@]}" rm -f "$policy"' EXIT
      printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
      "${sudo[@]}" chmod 755 "$policy"
    fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
  else
    step "Debian packages: all ${#packages[@]} installed"
  fi
fi

step "building slurmtopo (cmake -G Ninja, build/)"
cmake -S . -B build -G Ninja
ninja -C build slurmtopo
slurmtopo=build/slurmtopo

fabric=samples/superpod-4su.topo
step "what slurmtopo sees in $fabric (4 SUs x 16 DGX x 8 rails, with faults)"
"$slurmtopo" inspect --fabric "$fabric"

step "topology.conf for Slurm from the same fabric, the site config and slurm.conf"
mkdir -p out
"$slurmtopo" emit topology --fabric "$fabric" --config samples/site.yaml \
  --slurm-conf samples/slurm.conf -o out/topology.conf

step "gres.conf and slurm.conf NodeName lines from the hosts' hwloc data (samples/nodes), joined to the fabric"
"$slurmtopo" emit gres --nodes-dir samples/nodes --nodes 'dgx[001-064]' --fabric "$fabric" \
  --config samples/site.yaml -o out/gres.conf
"$slurmtopo" emit nodes --nodes-dir samples/nodes --nodes 'dgx[001-064]' -o out/slurm-nodes.conf

step "what a 16-node job costs: one scalable unit against the same job spread over two"
"$slurmtopo" simulate --fabric "$fabric" --config samples/site.yaml --profile h100-ndr \
  --nodes 'dgx[001-016]' --compare 'dgx[001-008,017-024]' --sizes 16M,1G,8G | tee out/simulate.txt

step "where Slurm 22.05 puts that job when dgx[001-010] are busy"
"$slurmtopo" place --topology out/topology.conf --nodes 'dgx[001-064]' --busy 'dgx[001-010]' \
  -N 16 --exclusive --explain | tee out/place.txt

step "what if: Slurm's placement against no topology, the best and a random one, for 8-64 node jobs"
"$slurmtopo" whatif --fabric "$fabric" --config samples/site.yaml --profile h100-ndr \
  -N 8,16,32,64 --busy 'dgx[001-010]' | tee out/whatif-policies.txt

step "what if su2-rail6's degraded spine cable (1x) is taken out: a 2,000-job workload replayed"
"$slurmtopo" whatif --fabric "$fabric" --config samples/site.yaml --profile h100-ndr \
  --synthetic 2000 --seed 1 --remove-cable su2-rail6/24 | tee out/whatif-replay.txt

step "the commissioning report: verdict, drawing, link health, nodes, predicted busbw, Slurm files"
# Exit 4 (FAIL) or 3 (WARN) means the sample's faults were found (it has some on purpose); 2
# would be bad input, 1 a bug.
rc=0
"$slurmtopo" report --fabric "$fabric" --config samples/site.yaml --slurm-conf samples/slurm.conf \
  --nodes-dir samples/nodes --profile h100-ndr -o out/report.html --json out/report.json \
  --md out/report.md || rc=$?
(( rc == 0 || rc == 3 || rc == 4 )) || exit "$rc"

step "done"
cat <<EOF
  slurmtopo         $PWD/$slurmtopo
  topology.conf     $PWD/out/topology.conf (the previous one, if it changed, is kept as .bak)
  gres.conf         $PWD/out/gres.conf
  NodeName lines    $PWD/out/slurm-nodes.conf
  simulate, place   $PWD/out/simulate.txt, $PWD/out/place.txt
  what-if           $PWD/out/whatif-policies.txt, $PWD/out/whatif-replay.txt
  report            $PWD/out/report.html (open in a browser), out/report.json, out/report.md
  sample inputs     $PWD/samples (README.md says how each was made)
Next: $slurmtopo inspect --fabric $fabric --json
      $slurmtopo emit topology --fabric $fabric --diff out/topology.conf
EOF
