import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT = join(ROOT, 'packages/server/dist/web/index.html');
/** What the web app's bundle is made of: its sources, and the core modules it imports. */
const SOURCES = [join(ROOT, 'packages/server/web'), join(ROOT, 'packages/core/src')];
const WIDGET_BUILT = join(ROOT, 'packages/server/dist/widget/widget.js');
/** The widget's sources, and its catalogs (packages/server/locales/<lng>/widget.json), bundled into it. */
const WIDGET_SOURCES = [join(ROOT, 'packages/server/widget'), join(ROOT, 'packages/server/locales')];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.includes('.test.') ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * Vitest's global setup: builds the web app (packages/server/dist/web) when it is missing or older
 * than its sources, so the browser tests and `treeagent dev`'s tests always serve the current app,
 * on a fresh clone too. Takes a few seconds when it builds, nothing otherwise.
 */
export default async function buildWebIfStale(): Promise<void> {
  const { build } = await import('vite');
  if (!(existsSync(BUILT) && statSync(BUILT).mtimeMs >= Math.max(...SOURCES.map(newest)))) {
    await build({
      configFile: join(ROOT, 'packages/server/web/vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
    });
  }
  // The embeddable widget (packages/server/widget → dist/widget), served at /widget.js.
  if (
    !(existsSync(WIDGET_BUILT) && statSync(WIDGET_BUILT).mtimeMs >= Math.max(...WIDGET_SOURCES.map(newest)))
  ) {
    await build({
      configFile: join(ROOT, 'packages/server/widget/vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
    });
  }
}
