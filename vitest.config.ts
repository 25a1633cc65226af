import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts', 'bench/smoke.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    setupFiles: ['scripts/vitest-setup.ts'],
  },
});
