/**
 * `npm run deps`: every bare import of every published package's shipped sources is declared in its
 * package.json (scripts/dependencies.ts says how). Exits 1, naming each file and the fix, otherwise.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkPackage } from './dependencies.js';

const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages')).sort();
const problems = packages.flatMap((name) => checkPackage(root, join(root, 'packages', name)));
if (problems.length) {
  console.error(`${problems.length} dependency problem${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  `Dependencies: the imports of ${packages.length} packages are all declared in their package.json.`,
);
