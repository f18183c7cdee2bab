#!/usr/bin/env bash
# Installs zsh and fish from Debian's packages when missing (the shell completion tests source the scripts
# `policyset completion zsh|fish` prints in them). Idempotent. Needs root (as on CI) or sudo.
set -euo pipefail
missing=()
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
command -v fish >/dev/null 2>&1 || missing+=(fish)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" ensure-shells "${missing[@]}"
command -v zsh >/dev/null && command -v fish >/dev/null
