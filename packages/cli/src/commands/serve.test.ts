import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashOperatorPassword } from '@treeagent/server';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import type { Output } from '../output.js';
import { capture } from '../test-support/capture.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tree = join(scratch, 'tree.json');
writeFileSync(
  tree,
  JSON.stringify({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, parent: 1, type: 'agent', isPrimary: true },
    ],
  }),
);

/** Runs `treeagent serve <tree> …args` and returns the exit code and what it printed on stderr. */
async function serveWith(...args: string[]): Promise<{ code: number; errors: string }> {
  const errors: string[] = [];
  const out: Output = { log: () => undefined, write: () => undefined, error: (line) => errors.push(line) };
  const code = await main(['serve', tree, '--port', '0', '--data', join(scratch, 'data'), ...args], out);
  return { code, errors: errors.join('\n') };
}

describe('treeagent serve refuses an unsafe or broken configuration, naming the flag and the fix', () => {
  it('on a non-loopback address without API keys, unless --public says so', async () => {
    const { code, errors } = await serveWith('--host', '0.0.0.0');
    expect(code).toBe(2);
    expect(errors).toMatch(/without an API key/);
    expect(errors).toMatch(/--api-key-file <file>/);
    expect(errors).toMatch(/--public/);
  });

  it('the editor without operators: only admins may edit on a server', async () => {
    const { code, errors } = await serveWith('--editor');
    expect(code).toBe(2);
    expect(errors).toMatch(/--editor needs --operators <file>/);
  });

  it('an operators file or an API key file other users can read', async () => {
    const operators = join(scratch, 'operators.json');
    writeFileSync(operators, JSON.stringify({ operators: [] }));
    chmodSync(operators, 0o644);
    let result = await serveWith('--operators', operators);
    expect(result.code).toBe(2);
    expect(result.errors).toContain(`--operators ${operators} can be read by other users`);
    expect(result.errors).toContain(`chmod 600 ${operators}`);

    const keys = join(scratch, 'keys');
    writeFileSync(keys, 'sk-0123456789abcdef0123\n');
    chmodSync(keys, 0o640);
    result = await serveWith('--api-key-file', keys);
    expect(result.code).toBe(2);
    expect(result.errors).toContain(`chmod 600 ${keys}`);
  });

  it('short API keys, an editor nobody may use, a database URL that is not PostgreSQL', async () => {
    expect((await serveWith('--api-key', 'secret')).errors).toMatch(/at least 16 random/);

    const operators = join(scratch, 'no-admin.json');
    const passwordHash = await hashOperatorPassword('a long enough password');
    writeFileSync(
      operators,
      JSON.stringify({ operators: [{ id: 'bruno', name: 'Bruno', role: 'operator', passwordHash }] }),
    );
    chmodSync(operators, 0o600);
    const noAdmin = await serveWith('--operators', operators, '--editor');
    expect(noAdmin.code).toBe(2);
    expect(noAdmin.errors).toMatch(/no operator with role "admin"/);

    const mysql = await serveWith('--database-url', 'mysql://db/shop');
    expect(mysql.code).toBe(2);
    expect(mysql.errors).toMatch(/--database-url .* must be a PostgreSQL URL: postgres:\/\//);
  });
});

describe('treeagent serve --watch', () => {
  it('reloads the tree when its file changes (also when replaced by a rename), keeping the session', async () => {
    const dir = mkdtempSync(join(scratch, 'watch-'));
    const file = join(dir, 'shop.json');
    const document = (answer: string) =>
      `${JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, parent: 1, type: 'agent', isPrimary: true },
          {
            id: 3,
            parent: 2,
            type: 'emit',
            chunks: ['shipping'],
            emit: { message: { type: 'static', content: answer } },
          },
        ],
      })}\n`;
    writeFileSync(file, document('Shipping is 7.90.'));
    const out = capture();
    const lines = out.lines;
    const server = await startServe(file, { port: '0', data: join(dir, 'data'), watch: true }, out);
    try {
      expect(lines.join('\n')).toContain('Hot reload: on (--watch)');
      const { sessionId, token } = (await (
        await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })
      ).json()) as {
        sessionId: string;
        token: string;
      };
      const say = async () => {
        const response = await fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-token': token },
          body: JSON.stringify({ message: 'shipping' }),
        });
        return ((await response.json()) as { messages: { content: string }[] }).messages[0]!.content;
      };
      const until = async (expected: string) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          if ((await say()) === expected) return expected;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return say();
      };
      expect(await say()).toBe('Shipping is 7.90.');
      writeFileSync(file, document('Shipping is 5.90.'));
      expect(await until('Shipping is 5.90.')).toBe('Shipping is 5.90.');
      writeFileSync(`${file}.next`, document('Shipping is free.'));
      renameSync(`${file}.next`, file);
      expect(await until('Shipping is free.')).toBe('Shipping is free.');
      expect(server.reloads).toBeGreaterThanOrEqual(2);
      expect(readFileSync(file, 'utf8')).toContain('free');
    } finally {
      await server.close();
    }
    expect(lines.join('\n')).toMatch(/Stopped: \d+ turns? finished/);
  });
});
