import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { sourceAliases } from '../../../scripts/workspace-packages.js';

/**
 * The embeddable widget of @treeagent/server, built into `packages/server/dist/widget`: `widget.js`
 * (one classic script for a `<script>` tag) and `widget.mjs` (an ES module for single-page apps).
 * The server serves both (`/widget.js`, `/widget.mjs`); no eval, no inline script or style, so it
 * runs under a site's strict Content-Security-Policy.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // @treeagent/core/client from its TypeScript source (no build of the core needed), bundled in.
  resolve: { alias: sourceAliases() },
  build: {
    outDir: fileURLToPath(new URL('../dist/widget', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('./src/main.ts', import.meta.url)),
      name: 'TreeAgentWidgetModule',
      formats: ['iife', 'es'],
      fileName: (format) => (format === 'es' ? 'widget.mjs' : 'widget.js'),
    },
  },
});
