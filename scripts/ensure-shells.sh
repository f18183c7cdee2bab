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
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
else
  echo "ensure-shells: ${missing[*]} missing and this user cannot install packages (run as root: apt-get install -y ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
command -v zsh >/dev/null && command -v fish >/dev/null
