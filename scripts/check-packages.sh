#!/usr/bin/env bash
# Packaging checks of every published package, on its built dist/ (run `npm run build` first):
#   - publint (--strict: warnings fail too): exports, files, types;
#   - @arethetypeswrong/cli with the esm-only profile: the types resolve for every entry point
#     under node16/nodenext (ESM) and bundler resolution. The packages are ESM-only on purpose
#     (each README says so), so the CommonJS resolutions are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for dir in packages/*/; do
  name=$(node -p "require('./${dir}package.json').name")
  if ! out=$(npx --no-install publint --strict "$dir" 2>&1); then
    echo "publint: $name"; echo "$out"; status=1
  fi
  if ! out=$(cd "$dir" && npx --no-install attw --pack . --profile esm-only --format table-flipped 2>&1); then
    echo "attw: $name"; echo "$out"; status=1
  fi
  [ "$status" -eq 0 ] && echo "ok - publint and attw: $name"
done
exit "$status"
