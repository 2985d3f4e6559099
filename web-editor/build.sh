#!/bin/sh
# Builds the playground's code editor from package-lock.json: uno_rules/web/static/vendor/
# editor.js (CodeMirror 6 in one file) and LICENSES.txt. Needs node and npm; the result is
# committed, so installing uno-rules needs neither. Usage: web-editor/build.sh [OUTDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-$here/../uno_rules/web/static/vendor}" && cd "${1:-$here/../uno_rules/web/static/vendor}" && pwd)
cd "$here"
# --ignore-scripts: esbuild's binary comes as an optional package; no install script is run.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
node build.mjs "$out"
