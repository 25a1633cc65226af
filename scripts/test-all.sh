#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check and test.
# This is the README's test command; .ci/run calls it as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "Tree Agent needs Node.js 20 or newer (found $(node --version))." >&2
  exit 1
fi

npm ci --no-audit --no-fund
rm -f .vitest-report.json
status=0
npm test || status=$?
node scripts/test-summary.mjs .vitest-report.json
exit "$status"
