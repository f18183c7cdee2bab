#!/usr/bin/env bash
# Installs Emacs (emacs-nox) and eglot (elpa-eglot) from Debian's packages when missing (the README's eglot configuration is tested verbatim).
# Idempotent: does nothing when emacs and eglot are already there. Needs root (as on CI) or sudo.
set -euo pipefail
if command -v emacs >/dev/null 2>&1 && [ -d /usr/share/emacs/site-lisp/elpa-src/eglot-1.9 -o -n "$(ls -d /usr/share/emacs/site-lisp/elpa/eglot-* 2>/dev/null)" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
else
  echo "ensure-emacs: emacs or eglot is missing and this user cannot install packages (run as root: apt-get install -y emacs-nox elpa-eglot)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends emacs-nox elpa-eglot >/dev/null
command -v emacs >/dev/null
emacs --version | head -1
