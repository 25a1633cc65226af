import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/workspace-packages.js';

export default defineConfig({
  // The packages' sources, not their dist/: tests need no build (see scripts/workspace-packages.ts).
  resolve: { alias: sourceAliases() },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'examples/**/*.test.ts',
      'bench/smoke.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    setupFiles: ['scripts/vitest-setup.ts'],
  },
});
