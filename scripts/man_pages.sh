#!/usr/bin/env bash
# One man page per command, from the CLI's own --help (help2man), so they never drift from it:
# slurmtopo.1, slurmtopo-emit.1, slurmtopo-emit-topology.1, ... gzipped as Debian wants them.
# Each --help ends with "Exit status:" and "Examples:" (cli/exit_status.h): help2man makes the
# second an EXAMPLES section itself, and the first, which it would make a subsection of OPTIONS,
# becomes the EXIT STATUS section here.
#
#   man_pages.sh /path/to/slurmtopo OUTDIR
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
command -v help2man >/dev/null || { echo "man_pages.sh: help2man not installed (Debian package help2man)" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*.1 "$out"/*.1.gz
version=$("$bin" --version | awk '{print $2}')
# Reproducible dates: the commit's, else a fixed one.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$(dirname "${BASH_SOURCE[0]}")" log -1 --format=%ct 2>/dev/null || echo 0)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The subcommands CLI11's help lists under "Subcommands:", one per line: NAME<TAB>DESCRIPTION.
subcommands() { # WORDS...
  "$bin" "$@" --help | awk '
    /^Subcommands:/ { on = 1; next }
    on && /^[^ ]/ { on = 0 }
    on && /^  [a-z]/ { name = $1; $1 = ""; sub(/^ +/, ""); print name "\t" $0 }'
}

page() { # DESCRIPTION WORDS...
  local desc=$1 name wrapper
  shift
  name=slurmtopo${*:+-$(IFS=-; echo "$*")}
  wrapper=$tmp/$name
  # help2man runs NAME --help and NAME --version; the page is named after NAME.
  printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "%s %s"; exit 0; fi\nexec %q %s "$@"\n' \
    "$name" "$version" "$bin" "$*" >"$wrapper"
  chmod +x "$wrapper"
  help2man --no-info --no-discard-stderr --section 1 --source "slurmtopo $version" --name "$desc" \
    --output "$out/$name.1" "$wrapper"
  # Examples are command lines: left-adjusted, never hyphenated.
  sed -i -e 's/^\.SS "Exit status:"$/.SH "EXIT STATUS"/' -e 's/^\.SH EXAMPLES$/.SH EXAMPLES\n.ad l\n.nh/' "$out/$name.1"
  grep -q '^\.SH "EXIT STATUS"$' "$out/$name.1" || { echo "man_pages.sh: $name --help has no 'Exit status:'" >&2; exit 1; }
  gzip -9n "$out/$name.1"
  local sub sdesc
  while IFS=$'\t' read -r sub sdesc; do
    [[ $sub == help || $sub == completion ]] && [[ $# -eq 0 ]] && continue
    page "$sdesc" "$@" "$sub"
  done < <(subcommands "$@")
}

page "InfiniBand fabric and GPU nodes to Slurm configuration"
ls "$out" | wc -l | xargs echo "man_pages.sh: pages written:"
