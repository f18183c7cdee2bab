#!/usr/bin/env bash
# Installs Debian packages for the tests that need a real program (Neovim, Emacs, zsh, fish), as root (as
# on CI) or through sudo: scripts/apt-install.sh <who is asking> <package>...  The ensure-*.sh scripts call
# it only when what they look for is missing.
set -euo pipefail
who=$1
shift
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
else
  echo "$who: $* missing and this user cannot install packages (run as root: apt-get install -y $*)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
