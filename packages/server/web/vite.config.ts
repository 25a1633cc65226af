import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { sourceAliases } from '../../../scripts/workspace-packages.js';

/**
 * The web app of @treeagent/server, built into `packages/server/dist/web` (what `WEB_DIRECTORY`
 * serves; it ships in the npm package, so users never build it). `npm run dev:web -w
 * @treeagent/server` serves it with hot reload against a server already running at
 * TREEAGENT_SERVER (default http://127.0.0.1:3000, what `treeagent dev` starts).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [preact()],
  // @treeagent/core/client from its TypeScript source, as everywhere in the repository.
  resolve: { alias: sourceAliases() },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No source map: its sources (web/src) are not in the package, and the map would be four times
    // the bundle. Debug the app with `npm run dev:web`, which serves the sources.
    sourcemap: false,
  },
  server: {
    // changeOrigin: the server checks the Host header against its allow-list.
    proxy: {
      '/api': { target: process.env.TREEAGENT_SERVER ?? 'http://127.0.0.1:3000', changeOrigin: true },
      '/web-settings.json': {
        target: process.env.TREEAGENT_SERVER ?? 'http://127.0.0.1:3000',
        changeOrigin: true,
      },
    },
  },
});
