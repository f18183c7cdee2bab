#!/usr/bin/env bash
# Installs Neovim from Debian's packages when `nvim` is missing (the LSP test with a real client needs it).
# Idempotent: does nothing when nvim is already on PATH. Needs root (as on CI) or sudo.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" ensure-neovim neovim
command -v nvim >/dev/null
nvim --version | head -1
