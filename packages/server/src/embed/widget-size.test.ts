import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** The most the widget's script may weigh, gzipped: it loads on every page of the sites that embed it. */
const BUDGET_BYTES = 60 * 1024;

describe('the widget script', () => {
  it(`stays within its size budget (${BUDGET_BYTES / 1024} kB gzipped), and uses no eval`, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'treeagent-widget-build-'));
    const { build } = await import('vite');
    await build({
      configFile: fileURLToPath(new URL('../../widget/vite.config.ts', import.meta.url)),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    for (const name of ['widget.js', 'widget.mjs']) {
      const script = readFileSync(join(outDir, name));
      const gzipped = gzipSync(script, { level: 9 }).length;
      expect(gzipped, `${name}: ${gzipped} bytes gzipped`).toBeLessThanOrEqual(BUDGET_BYTES);
      // A site's strict CSP (no 'unsafe-eval') would refuse these.
      expect(script.toString()).not.toMatch(/\beval\(|new Function\(/);
    }
  }, 60_000);
});
