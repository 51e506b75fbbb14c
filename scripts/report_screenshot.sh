#!/usr/bin/env bash
# Makes docs/report.png, the README's picture of `slurmtopo report`: the samples' report
# (samples/README.md: the SuperPOD with its four cabling faults and one miscabled node) rendered
# by Debian's headless Chromium, first screen and a half.
#
#   scripts/report_screenshot.sh [build/slurmtopo] [docs/report.png]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
slurmtopo=${1:-build/slurmtopo}
out=${2:-docs/report.png}
chromium=${CHROMIUM:-$(command -v chromium)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Relative paths, so the command the page shows is the one a reader can type.
"$slurmtopo" report --fabric samples/superpod-4su.topo --config samples/site.yaml --nodes-dir samples/nodes \
  --slurm-conf samples/slurm.conf -o "$work/report.html" || (($? == 4))  # 4: the sample fails its checks (FAIL)
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$work/profile" --hide-scrollbars --window-size=1100,1500 \
  --screenshot="$work/report.png" "file://$work/report.html" >/dev/null 2>&1
mv "$work/report.png" "$out"
echo "wrote $out"
