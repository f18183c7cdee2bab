#!/usr/bin/env bash
# Installs Neovim from Debian's packages when `nvim` is missing (the LSP test with a real client needs it).
# Idempotent: does nothing when nvim is already on PATH. Needs root (as on CI) or sudo.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
else
  echo "ensure-neovim: nvim is missing and this user cannot install packages (run as root: apt-get install -y neovim)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends neovim >/dev/null
command -v nvim >/dev/null
nvim --version | head -1
