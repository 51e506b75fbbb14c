# shellcheck shell=bash
# slurm_chroot.sh: a newer Slurm release (Debian trixie / sid packages) in a chroot, for the tests.
#
# Source it; do not execute it. The host stays Debian 12 (Slurm 22.05); 24.11 and 26.05 come
# from Debian's archive through mmdebstrap, as ../shared/reference/real-slurm-in-tests.md says.
#
#   slurm_chroot_suite RELEASE       trixie for 24.11, sid for 26.05; 1 for any other release
#   slurm_chroot_check RELEASE       0 if this machine can run RELEASE in a chroot, else prints why
#   slurm_chroot_root RELEASE        builds (once) and prints the unpacked root of RELEASE
#   slurm_chroot_enter RELEASE       starts the private mount namespace holding the root, with
#                                    /proc /sys /dev /dev/pts /dev/shm and the temp dir bound in;
#                                    sets SLURM_CHROOT_RUN (a command prefix: nsenter + chroot,
#                                    both exec, so "$!" of `"${SLURM_CHROOT_RUN[@]}" CMD &` is
#                                    CMD's own PID and it can be stopped by PID)
#   slurm_chroot_run CMD...          runs CMD inside, in the foreground
#   slurm_chroot_version             prints the Slurm version inside (e.g. 24.11.5)
#   slurm_chroot_leave               kills the holder by PID (and anything left in its namespace)
#
# Cache: /var/cache/slurmtopo/chroots (SLURM_CHROOT_CACHE) keeps SUITE-KEY.tar, KEY a hash of the
# suite, the package list and this recipe's version, plus its unpacked SUITE-KEY/ directory. A
# flock on SUITE-KEY.lock makes tests started in parallel wait for one build instead of racing.
# The unpacked root is shared and never written by the tests: daemons write only into the temp
# dir bound at its own path. Roots of an older key are left alone (something may run in them).
#
# Teardown: the holder watches the shell that sourced this file and, when that shell is gone
# (even after SIGKILL), kills every process still in its mount namespace and exits; the
# namespace and its bind mounts go with it, so nothing stays mounted on the host.

SLURM_CHROOT_CACHE=${SLURM_CHROOT_CACHE:-/var/cache/slurmtopo/chroots}
SLURM_CHROOT_PACKAGES=(slurmctld slurmd slurm-client munge procps iproute2)
SLURM_CHROOT_RECIPE=1 # bump when the build below changes what is in the root
SLURM_CHROOT_ROOT=""
SLURM_CHROOT_HOLDER=""
SLURM_CHROOT_RUN=()

_slurm_chroot_err() { echo "slurm_chroot: $*" >&2; }

slurm_chroot_suite() { # RELEASE -> Debian suite
  case $1 in
    24.11) echo trixie ;;
    26.05) echo sid ;;
    *) return 1 ;;
  esac
}

slurm_chroot_check() { # RELEASE -> 0, or prints the reason it cannot run here
  local tool
  slurm_chroot_suite "$1" >/dev/null || { echo "no Debian suite ships Slurm $1 (24.11: trixie, 26.05: sid)"; return 1; }
  (( EUID == 0 )) || { echo "needs root (mmdebstrap, chroot, mount namespaces)"; return 1; }
  for tool in mmdebstrap unshare nsenter chroot mount flock tar sha256sum; do
    command -v "$tool" >/dev/null || { echo "needs $tool (see .ci/run's package list)"; return 1; }
  done
  return 0
}

_slurm_chroot_key() { # SUITE
  printf '%s\n' "$1" "${SLURM_CHROOT_PACKAGES[*]}" "recipe $SLURM_CHROOT_RECIPE" | sha256sum | cut -c1-12
}

slurm_chroot_root() { # RELEASE -> prints the unpacked root (built under a lock if missing)
  local suite key base opts=() t0=$SECONDS
  suite=$(slurm_chroot_suite "$1") || { _slurm_chroot_err "no suite for Slurm $1"; return 1; }
  key=$(_slurm_chroot_key "$suite")
  base=$SLURM_CHROOT_CACHE/$suite-$key
  mkdir -p "$SLURM_CHROOT_CACHE" || return 1
  if [[ -f $base/.complete ]]; then echo "$base"; return 0; fi
  (
    flock -w 1800 9 || { _slurm_chroot_err "waited 30 min for $base.lock"; exit 1; }
    [[ -f $base/.complete ]] && exit 0
    if [[ ! -s $base.tar ]]; then
      # sid's Release file on an archive copy can carry an expired Valid-Until.
      [[ $suite == sid ]] && opts+=(--aptopt='Acquire::Check-Valid-Until "false"')
      _slurm_chroot_err "building the $suite root (Slurm $1) with mmdebstrap into $base.tar"
      # policy-rc.d 101: no package starts a service inside; localhost must resolve.
      mmdebstrap --variant=apt --format=tar --quiet "${opts[@]}" \
        --include="$(IFS=,; echo "${SLURM_CHROOT_PACKAGES[*]}")" \
        --essential-hook='mkdir -p "$1/usr/sbin" && printf "#!/bin/sh\nexit 101\n" >"$1/usr/sbin/policy-rc.d" && chmod 755 "$1/usr/sbin/policy-rc.d"' \
        --customize-hook='printf "127.0.0.1 localhost\n::1 localhost\n" >"$1/etc/hosts"' \
        "$suite" "$base.tar.part" >"$base.build.log" 2>&1 ||
        { _slurm_chroot_err "mmdebstrap $suite failed: $(tail -n 5 "$base.build.log" | tr '\n' ' ')"; rm -f "$base.tar.part"; exit 1; }
      mv "$base.tar.part" "$base.tar"
    fi
    rm -rf "$base.part"
    mkdir -p "$base.part" && tar -C "$base.part" -xf "$base.tar" || { _slurm_chroot_err "cannot unpack $base.tar"; exit 1; }
    touch "$base.part/.complete"
    mv "$base.part" "$base"
    _slurm_chroot_err "$suite root ready in $(( SECONDS - t0 )) s"
  ) 9>"$base.lock" || return 1
  echo "$base"
}

# The holder: PID 1 of nothing, just a process that keeps the mount namespace alive. It binds
# the host's pseudo file systems and temp dirs into the root, reports ready, then waits for the
# test shell to go away.
_slurm_chroot_holder() { # ROOT WATCHED_PID READY_FILE BIND_DIR...
  local root=$1 watched=$2 ready=$3 d
  shift 3
  mount --make-rprivate / || exit 1
  mount -t proc proc "$root/proc" || exit 1
  mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" || exit 1
  mount --bind /dev "$root/dev" || exit 1
  mount --bind /dev/pts "$root/dev/pts" || exit 1
  mount --bind /dev/shm "$root/dev/shm" || exit 1
  for d in "$@"; do
    mkdir -p "$root$d" && mount --bind "$d" "$root$d" || exit 1
  done
  trap '' INT # the test stops its daemons first; its exit (or slurm_chroot_leave) ends this
  trap '_slurm_chroot_kill_namespace; exit 0' TERM
  echo ready >"$ready"
  while kill -0 "$watched" 2>/dev/null; do sleep 0.2; done
  _slurm_chroot_kill_namespace
  exit 0
}

_slurm_chroot_kill_namespace() { # in the holder's namespace: every other process in it
  local me ns p pids=()
  me=$BASHPID
  ns=$(readlink /proc/self/ns/mnt)
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ $p == "$me" ]] && continue
    [[ $(readlink "/proc/$p/ns/mnt" 2>/dev/null) == "$ns" ]] && pids+=("$p")
  done
  (( ${#pids[@]} )) || return 0
  kill -TERM "${pids[@]}" 2>/dev/null
  sleep 1
  kill -KILL "${pids[@]}" 2>/dev/null
  return 0
}

slurm_chroot_enter() { # RELEASE
  local root ready binds=(/tmp) i
  [[ -z $SLURM_CHROOT_HOLDER ]] || { _slurm_chroot_err "already entered"; return 2; }
  root=$(slurm_chroot_root "$1") || return 1
  [[ -n ${TMPDIR:-} && $TMPDIR != /tmp && -d $TMPDIR ]] && binds+=("$(cd "$TMPDIR" && pwd)")
  ready=$(mktemp "${TMPDIR:-/tmp}/slurm_chroot.XXXXXX") || return 1
  : >"$ready"
  unshare --mount --propagation private \
    bash -c "$(declare -f _slurm_chroot_holder _slurm_chroot_kill_namespace); _slurm_chroot_holder \"\$@\"" \
    holder "$root" "$$" "$ready" "${binds[@]}" </dev/null >/dev/null 2>"$ready.err" &
  SLURM_CHROOT_HOLDER=$!
  for (( i = 0; i < 300; i++ )); do
    [[ -s $ready ]] && break
    kill -0 "$SLURM_CHROOT_HOLDER" 2>/dev/null || break
    sleep 0.02
  done
  if [[ ! -s $ready ]]; then
    _slurm_chroot_err "mount namespace for $root did not come up: $(head -c 300 "$ready.err")"
    rm -f "$ready" "$ready.err"
    slurm_chroot_leave
    return 1
  fi
  rm -f "$ready" "$ready.err"
  SLURM_CHROOT_ROOT=$root
  # nsenter and chroot both exec: the command keeps the PID the shell gave nsenter.
  SLURM_CHROOT_RUN=(nsenter -t "$SLURM_CHROOT_HOLDER" -m chroot "$root")
  return 0
}

slurm_chroot_run() { # CMD...
  (( ${#SLURM_CHROOT_RUN[@]} )) || { _slurm_chroot_err "slurm_chroot_enter first"; return 2; }
  "${SLURM_CHROOT_RUN[@]}" "$@"
}

slurm_chroot_version() { # -> e.g. 24.11.5 (the package's; `scontrol -V` wants a slurm.conf)
  slurm_chroot_run dpkg-query -W -f '${Version}' slurmctld | awk '{ sub(/-[^-]*$/, ""); print }'
}

slurm_chroot_leave() {
  local pid=$SLURM_CHROOT_HOLDER t=0
  [[ -n $pid ]] || return 0
  kill -TERM "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null && (( t++ < 100 )); do sleep 0.05; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  SLURM_CHROOT_HOLDER=""
  SLURM_CHROOT_RUN=()
  SLURM_CHROOT_ROOT=""
  return 0
}
