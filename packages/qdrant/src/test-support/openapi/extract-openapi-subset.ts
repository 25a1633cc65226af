/**
 * Writes `qdrant-openapi-subset.json`: the request schemas the adapter's tests validate against,
 * cut from Qdrant's published OpenAPI document (`docs/redoc/master/openapi.json` in
 * github.com/qdrant/qdrant): `ScrollRequest`, `QueryRequest`, `CountRequest` and every schema they
 * reference, nothing else. OpenAPI 3.0's `nullable` becomes JSON Schema's `null` type, as Qdrant's own
 * test helper does before validating (it converts the schema the same way).
 *
 * Run with a Qdrant checkout or the file alone:
 * `npx tsx packages/qdrant/src/test-support/openapi/extract-openapi-subset.ts <openapi.json> <commit> <version>`.
 * Tests never run this file.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const ROOTS = ['ScrollRequest', 'QueryRequest', 'CountRequest'];

const [file, commit, version] = process.argv.slice(2);
if (!file || !commit || !version) {
  console.error('usage: extract-openapi-subset.ts <openapi.json> <commit> <version>');
  process.exit(2);
}
const document = JSON.parse(readFileSync(file, 'utf8')) as {
  components: { schemas: Record<string, unknown> };
};
const all = document.components.schemas;

const names = new Set<string>();
const pending = [...ROOTS];
while (pending.length) {
  const name = pending.pop()!;
  if (names.has(name)) continue;
  if (!(name in all)) throw new Error(`schema ${name} is not in ${file}`);
  names.add(name);
  for (const [, ref] of JSON.stringify(all[name]).matchAll(/#\/components\/schemas\/(\w+)/g))
    pending.push(ref!);
}

/** OpenAPI 3.0 `nullable: true` → JSON Schema: a `null` type (or a `{ type: 'null' }` alternative). */
function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) out[key] = convert(value);
  if (nullable !== true) return out;
  if (Object.keys(out).every((k) => k === 'description')) return { ...out, type: 'null' };
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

const schemas = Object.fromEntries([...names].sort().map((name) => [name, convert(all[name])]));
const subset = {
  $id: 'qdrant-openapi-subset',
  $comment: `Cut from Qdrant's OpenAPI document (github.com/qdrant/qdrant, docs/redoc/master/openapi.json at commit ${commit}, Qdrant ${version}; Apache-2.0) by extract-openapi-subset.ts: ${ROOTS.join(', ')} and the schemas they reference, nullable converted to JSON Schema.`,
  'x-origin': {
    repository: 'https://github.com/qdrant/qdrant',
    path: 'docs/redoc/master/openapi.json',
    commit,
    version,
    license: 'Apache-2.0',
    roots: ROOTS,
  },
  components: { schemas },
};
writeFileSync(
  new URL('./qdrant-openapi-subset.json', import.meta.url),
  `${JSON.stringify(subset, null, 1)}\n`,
);
console.log(`wrote ${names.size} schemas`);
