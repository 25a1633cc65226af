import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/workspace-packages.js';

/**
 * Tests by layer (see CONTRIBUTING.md / README "Tests"):
 * - `unit`: no services; green for any contributor after `npm ci` (`npm run test:unit`).
 * - `int`: `*.int.test.ts`, need the PostgreSQL test server of `scripts/setup-postgres.sh` (`npm run test:int`).
 * - `browser`: `*.browser.test.ts`, drive Debian's Chromium (`npm run test:browser`).
 * `scripts/test-all.sh` (what CI runs) installs the services and runs all three.
 */
const INT = '**/*.int.test.ts';
const BROWSER = '**/*.browser.test.ts';
const ALL = [
  'packages/*/src/**/*.test.ts',
  'packages/server/web/src/**/*.test.{ts,tsx}',
  'packages/server/widget/src/**/*.test.ts',
  'examples/**/*.test.ts',
  'bench/smoke.test.ts',
  'bench/routing/*.test.ts',
  'scripts/**/*.test.ts',
];
const IGNORED = ['**/node_modules/**', '**/dist/**'];

export default defineConfig({
  // The packages' sources, not their dist/: tests need no build (see scripts/workspace-packages.ts).
  resolve: { alias: sourceAliases() },
  // JSX is the web app's (packages/server/web): Preact's automatic runtime.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    testTimeout: 20_000,
    setupFiles: ['scripts/vitest-setup.ts'],
    // A test that asserts nothing fails: it could not have caught a regression (CONTRIBUTING.md,
    // "Test helpers": a test that could not fail is a defect).
    // expect.poll waits up to 5 s (vitest: 1 s): the browser tests poll pages that refresh from a
    // live stream or a second request, which a loaded CI machine can slow past a second.
    expect: { requireAssertions: true, poll: { timeout: 5000 } },
    // Builds the web app (packages/server/dist/web) when its sources changed: the browser tests and
    // `treeagent dev`'s tests serve it. Nothing to do when it is current.
    globalSetup: ['scripts/build-web-if-stale.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...IGNORED, INT, BROWSER] } },
      { extends: true, test: { name: 'int', include: [`packages/*/src/${INT}`], exclude: IGNORED } },
      { extends: true, test: { name: 'browser', include: [`packages/*/src/${BROWSER}`], exclude: IGNORED } },
    ],
  },
});
