/**
 * `npm run layers`: checks the import graph against scripts/layers.ts (type imports included),
 * looks for import cycles between files, and compares docs/architecture.md's dependency table with
 * the rules, and checks the web app's layout (scripts/web-conventions.ts). `npm run layers -- --write` regenerates the table. Exits 1 on any problem.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  dependencyTable,
  documentedTable,
  importCycles,
  importGraph,
  layerViolations,
  ruleCycles,
  TABLE_END,
  TABLE_START,
  withTable,
} from './layers.js';
import { readWebSources, webConventionProblems } from './web-conventions.js';

const root = resolve(import.meta.dirname, '..');
const docPath = join(root, 'docs/architecture.md');
const problems: string[] = [];

const edges = importGraph(root);
problems.push(...layerViolations(edges));
for (const cycle of importCycles(edges))
  problems.push(`import cycle (type imports included): ${cycle.join(' ↔ ')}`);
for (const cycle of ruleCycles())
  problems.push(`the rules of scripts/layers.ts form a cycle: ${cycle.join(' ↔ ')}`);

// The web app's layout (CONTRIBUTING.md, "Web app"): network calls in api/, routed pages in pages/.
problems.push(...webConventionProblems(readWebSources(join(root, 'packages/server/web/src'))));

const document = readFileSync(docPath, 'utf8');
const table = dependencyTable();
if (process.argv.includes('--write')) {
  if (documentedTable(document) === null) {
    problems.push(
      `docs/architecture.md has no ${TABLE_START} … ${TABLE_END} markers to write the table between.`,
    );
  } else writeFileSync(docPath, withTable(document, table));
} else if (documentedTable(document) !== table) {
  problems.push(
    'docs/architecture.md: the dependency table differs from the rules of scripts/layers.ts. Run `npm run layers -- --write`.',
  );
}

if (problems.length) {
  console.error(`${problems.length} layering problem${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  `Layering: ${edges.length} imports checked, no violation, no cycle; the docs table matches the rules.`,
);
