import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { tempDir } from './test-support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WORKER = new URL('./sqlite-read-worker.ts', import.meta.url).href;

const cleanups = cleanupsAfterEach();

describe('SqliteReadWorker', () => {
  test('close() resolves after a query when nothing else keeps the process alive (the CLI exits 0, not 13)', () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'read.db');
    new Database(file).exec('CREATE TABLE t (x)').close();
    // A process whose last work is awaiting close(), as `treeagent personal-data` is: an unsettled
    // top-level await makes Node exit with 13.
    const script = join(dir, 'read-and-close.mjs');
    writeFileSync(
      script,
      `const { SqliteReadWorker } = await import(process.argv[2]);
const reads = new SqliteReadWorker(process.argv[3], 1000);
console.log(JSON.stringify(await reads.query('SELECT 1 AS one', [])));
await reads.close();
console.log('closed');
`,
    );
    for (let run = 0; run < 10; run++) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script, WORKER, file], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ run, status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
        run,
        status: 0,
        stdout: '[{"one":1}]\nclosed\n',
        stderr: '',
      });
    }
  }, 120_000);
});
