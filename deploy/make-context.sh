#!/usr/bin/env bash
# Makes the build context of the container image in deploy/.context (or the directory given):
#   tarballs/*.tgz   every @treeagent package packed as npm publishes it (npm pack),
#   package.json     a project that depends on @treeagent/cli and @treeagent/postgres, with npm
#                    "overrides" sending every @treeagent dependency to its tarball (as a registry would).
# The image then installs them like a user (npm install), not the monorepo's sources.
# Usage: bash deploy/make-context.sh [directory]   (SKIP_BUILD=1 skips `npm run build`)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-deploy/.context}"
if [ "${SKIP_BUILD:-}" != 1 ]; then
  echo "make-context: npm run build" >&2
  npm run build >/dev/null
fi
rm -rf "$out"
mkdir -p "$out/tarballs"
npm pack --workspaces --json --pack-destination "$out/tarballs" >"$out/packed.json" 2>/dev/null
node - "$out" <<'NODE'
const { readFileSync, writeFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const out = process.argv[2];
const packed = JSON.parse(readFileSync(join(out, 'packed.json'), 'utf8'));
rmSync(join(out, 'packed.json'));
// What the image runs: the CLI (treeagent serve), the PostgreSQL adapter (--database-url) and the
// @treeagent packages they depend on, listed directly too (npm resolves overrides of file: tarballs
// only slowly when they are reached through other tarballs alone).
const wanted = ['cli', 'postgres', 'core', 'components', 'server', 'sqlite', 'fit', 'ai-sdk', 'testing'].map(
  (name) => `@treeagent/${name}`,
);
const overrides = {};
for (const entry of packed) {
  if (!entry.name.startsWith('@treeagent/') || entry.name === '@treeagent/examples') {
    rmSync(join(out, 'tarballs', entry.filename));
    continue;
  }
  overrides[entry.name] = `file:./tarballs/${entry.filename}`;
}
for (const name of wanted)
  if (!overrides[name]) throw new Error(`make-context: ${name} was not packed (is it a workspace?)`);
const dependencies = Object.fromEntries(wanted.map((name) => [name, overrides[name]]));
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ name: 'treeagent-image', private: true, type: 'module', dependencies, overrides }, null, 2)}\n`,
);
NODE
du -sh "$out" | awk '{ print "make-context: " $1 " in " $2 }' >&2
