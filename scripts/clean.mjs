// Removes what `npm run build` wrote with tsc (dist/ files and the tsc build info) in every package.
// dist/web is left alone: the server's chat page is built there by its own build step.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const packages = join(import.meta.dirname, '..', 'packages');
for (const name of readdirSync(packages)) {
  const dist = join(packages, name, 'dist');
  if (!existsSync(dist)) continue;
  for (const entry of readdirSync(dist)) {
    if (entry !== 'web') rmSync(join(dist, entry), { recursive: true, force: true });
  }
}
