import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import { chatSession, eventually, say } from '../test-support/environment-scenario.js';
import { writeShopTree } from '../test-support/versioned-tree.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-serve-env-processes-', import.meta.url)));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** `treeagent serve` as users run it, in a process of its own; resolves to its URL once listening. */
async function serveProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; output(): string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'serve', ...args, '--port', '0'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (chunk) => {
    output += String(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return { url, output: () => output };
}

it('two server processes on one PostgreSQL database switch to a version published elsewhere within seconds (LISTEN/NOTIFY), sessions keeping theirs', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('cli_env_processes');
  try {
    const tree = writeShopTree(scratch);
    const store = ['--database-url', TEST_DATABASE_URL, '--schema', schema];
    const publish = async (message: string) => {
      const output = capture();
      expect(
        await main(
          ['publish', 'production', tree, '-m', message, '--data', `${scratch}/cli`, ...store],
          output,
        ),
      ).toBe(0);
    };
    await publish('first release');
    // Polling is an hour apart: only the notification can switch them within the test.
    const env = { TREEAGENT_VERSION_POLL_MS: '3600000' };
    const servers = await Promise.all(
      ['a', 'b'].map((name) =>
        serveProcess([tree, '--env', 'production', '--data', `${scratch}/data-${name}`, ...store], env),
      ),
    );
    const question = 'how long does shipping take';
    const early = await Promise.all(servers.map((server) => chatSession(server.url)));
    for (const [index, server] of servers.entries())
      expect(await say(server.url, early[index]!, question)).toBe('Shipping takes 2 days.');

    writeShopTree(scratch, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
    await publish('faster in town');
    for (const server of servers) {
      await eventually(
        async () => /production now serves version \w{12} of shop to new sessions/.test(server.output()),
        15_000,
        `${server.url} switching to the published version`,
      );
      expect(await say(server.url, await chatSession(server.url), question)).toBe(
        'Shipping takes 2 days, 1 in town.',
      );
    }
    for (const [index, server] of servers.entries()) {
      expect(await say(server.url, early[index]!, question)).toBe('Shipping takes 2 days.');
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.on('exit', resolve)) : null,
      ),
    );
    await drop();
  }
}, 180_000);
