import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The repository's root, its node_modules (linked into test projects) and core's build config. */
export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
export const REPOSITORY_NODE_MODULES = `${REPOSITORY}node_modules`;

/**
 * Builds `@treeagent/core`'s declarations (`packages/core/dist/*.d.ts`) when they are missing or
 * stale (`tsc -b`: nothing to do when they are current), for tests that type-check a project against
 * `@treeagent/core` as an installed package: CI runs the tests on a clean clone before the build.
 */
export function ensureCoreDeclarations(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', `${REPOSITORY}packages/core/tsconfig.build.json`], {
    stdio: 'pipe',
  });
}
