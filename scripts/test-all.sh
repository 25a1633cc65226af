#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian 12 machine, then runs every check and test:
#   - Debian's Chromium (browser tests of the chat page; Playwright never downloads a browser),
#   - Debian's HAProxy (the load balancer of the multi-process test),
#   - PostgreSQL 15 with pgvector built from Debian trixie's source package, and a test cluster
#     on 127.0.0.1:54329 (scripts/setup-postgres.sh),
#   - the npm packages (npm ci),
# then type check, lint, circular imports and the three test layers (vitest projects, vitest.config.ts):
#   - unit (no services: `npm run test:unit`, also what `npm test` runs after the checks),
#   - int (*.int.test.ts, PostgreSQL: `npm run test:int`),
#   - browser (*.browser.test.ts, Chromium: `npm run test:browser`).
# Every layer runs even when an earlier one fails; each writes a JSON report to .vitest-reports/ and
# scripts/test-summary.mjs prints one "N passed, N failed, N skipped" line over all three.
# This is the README's test command; .ci/run calls it as it is. Run it as root (or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "Tree Agent needs Node.js 20 or newer (found $(node --version))." >&2
  exit 1
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "test-all: installing Debian's chromium" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi

# The reverse proxy in front of a served app (packages/server/src/http/trust-proxy.int.test.ts) and the
# load balancer in front of several `treeagent serve` processes (serve-cluster.int.test.ts).
if [ ! -x /usr/sbin/haproxy ]; then
  echo "test-all: installing Debian's haproxy" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy >/dev/null
fi

TREEAGENT_TEST_DATABASE_URL="$(as_root bash scripts/setup-postgres.sh | tail -n 1)"
export TREEAGENT_TEST_DATABASE_URL

npm ci --no-audit --no-fund
rm -rf .vitest-reports
status=0
npm run check || status=$?
for layer in unit int browser; do
  echo "test-all: the $layer tests" >&2
  npm run "test:$layer" -- --reporter=default --reporter=json --outputFile.json=".vitest-reports/$layer.json" || status=$?
done
# The packages as users install them: build, packaging lint (publint, attw), API reports, and the
# pack-and-install test (tarballs in a fresh project outside the repository).
echo "test-all: build, packaging checks, API reports, pack-and-install" >&2
if npm run build; then
  npm run check:packages || status=$?
  npm run api:check || status=$?
  npm run test:pack -- --no-build || status=$?
  # The container image (deploy/Containerfile), built and run with podman on locally made Debian
  # bases (installs podman, runc, debootstrap; the root file system is cached in .cache/container/).
  # Its own "N passed, N failed" line comes before the summary of the three layers, which stays last.
  echo "test-all: the container image" >&2
  SKIP_BUILD=1 bash scripts/container-test.sh || status=$?
else
  status=1
fi
node scripts/test-summary.mjs .vitest-reports/unit.json .vitest-reports/int.json .vitest-reports/browser.json
exit "$status"
