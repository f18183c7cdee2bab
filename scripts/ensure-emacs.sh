#!/usr/bin/env bash
# Installs Emacs (emacs-nox) and eglot (elpa-eglot) from Debian's packages when missing (the README's eglot configuration is tested verbatim).
# Idempotent: does nothing when emacs and eglot are already there. Needs root (as on CI) or sudo.
set -euo pipefail
if command -v emacs >/dev/null 2>&1 && [ -d /usr/share/emacs/site-lisp/elpa-src/eglot-1.9 -o -n "$(ls -d /usr/share/emacs/site-lisp/elpa/eglot-* 2>/dev/null)" ]; then
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" ensure-emacs emacs-nox elpa-eglot
command -v emacs >/dev/null
emacs --version | head -1
