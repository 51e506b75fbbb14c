#!/usr/bin/env bash
# slurmctld_block_test.sh against Slurm 24.11: Debian's packages in a chroot (slurm_chroot.sh builds
# and caches the root; slurm_env.sh runs every Slurm program inside it).
export SLURM_ENV_RELEASE=24.11
exec bash "$(dirname "${BASH_SOURCE[0]}")/slurmctld_block_test.sh" "$@"
