#!/usr/bin/env bash
# `npm run release:dry`: what a release would publish, without touching the repository. Builds the
# packages, copies the workspace manifests, READMEs, changelogs, dist/ and the pending changesets to
# a temporary folder, applies the changesets there (`changeset version`: versions, internal ranges,
# CHANGELOG.md), and packs every package, printing name@version, size and file count of each tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/treeagent-release-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

npm run build >/dev/null
cp package.json "$tmp/"
cp -r .changeset "$tmp/"
mkdir -p "$tmp/packages"
for dir in packages/*/; do
  name=$(basename "$dir")
  mkdir -p "$tmp/packages/$name"
  for item in package.json README.md CHANGELOG.md dist; do
    if [ -e "$dir$item" ]; then cp -r "$dir$item" "$tmp/packages/$name/"; fi
  done
done
mkdir -p "$tmp/examples" && cp examples/package.json "$tmp/examples/"
# changeset reads the git history only for commit links; the copy is its own repository.
git -C "$tmp" init -q && git -C "$tmp" add -A && git -C "$tmp" -c user.email=dry@run -c user.name=dry commit -qm dry
(cd "$tmp" && "$root/node_modules/.bin/changeset" version >/dev/null)
mkdir "$tmp/out"
(cd "$tmp" && npm pack --workspaces --json --pack-destination "$tmp/out" 2>/dev/null) | node -e '
  const packed = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  for (const p of packed) {
    if (p.name === "@treeagent/examples") continue;
    console.log(`${(p.name + "@" + p.version).padEnd(44)} ${(p.size / 1024).toFixed(1).padStart(8)} kB  ${String(p.files.length).padStart(4)} files`);
  }'
echo "release:dry: nothing was published and the repository is unchanged."
