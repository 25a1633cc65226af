import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { Output } from '../output.js';
import { capture } from '../test-support/capture.js';
import { type DevOptions, startDev } from './dev.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const treeSource = (answer: string) => `import { defineTree } from '@treeagent/core';
import { answer } from './answer.ts';
export default defineTree({ name: 'hot', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit: () => ({ message: { type: 'static', content: answer + ' ${answer}' } }) },
] });
`;

describe('treeagent dev', () => {
  test('serves the chat page and the API, and reloads the tree on change keeping sessions', async () => {
    const tree = join(scratch, 'tree.ts');
    writeFileSync(join(scratch, 'answer.ts'), "export const answer = 'v1';\n");
    writeFileSync(tree, treeSource('a'));
    const out = capture();
    const lines = out.lines;
    const dev = await startDev(tree, { port: '0', data: join(scratch, 'data') }, out);
    try {
      expect(lines.join('\n')).toContain(`Chat page: ${dev.url}/`);
      const page = await fetch(`${dev.url}/`);
      expect(page.status).toBe(200);
      const { sessionId, token } = (await (
        await fetch(`${dev.url}/api/v1/sessions`, { method: 'POST' })
      ).json()) as { sessionId: string; token: string };
      const say = async () => {
        const response = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-token': token },
          body: JSON.stringify({ message: 'ciao' }),
        });
        return ((await response.json()) as { messages: { content: string }[] }).messages[0]!.content;
      };
      expect(await say()).toBe('v1 a');

      // A change in an imported file reloads the tree.
      let reloaded = dev.nextReload();
      writeFileSync(join(scratch, 'answer.ts'), "export const answer = 'v2';\n");
      await reloaded;
      expect(await say()).toBe('v2 a');

      // A broken tree keeps the old one serving.
      reloaded = dev.nextReload();
      writeFileSync(tree, 'export default { nodes: [{ id: 1, type: "root" }] };\n');
      await reloaded;
      expect(lines.join('\n')).toContain('Reload failed, still serving the previous tree');
      expect(await say()).toBe('v2 a');

      reloaded = dev.nextReload();
      writeFileSync(tree, treeSource('b'));
      await reloaded;
      expect(await say()).toBe('v2 b');
      expect(dev.reloads).toBe(2);
      const history = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/history`, {
        headers: { 'x-session-token': token },
      });
      expect(((await history.json()) as { history: unknown[] }).history.length).toBe(8);
    } finally {
      await dev.close();
    }
  });

  test('a session of the chat page survives a restart of the dev server (tokens in the data directory)', async () => {
    const directory = join(scratch, 'restart');
    const tree = join(scratch, 'restart-tree.ts');
    writeFileSync(join(scratch, 'answer.ts'), "export const answer = 'v1';\n");
    writeFileSync(tree, treeSource('r'));
    const out: Output = { log: () => {}, write: () => {}, error: () => {} };
    const options = { port: '0', data: join(directory, 'data'), watch: false };
    const first = await startDev(tree, options, out);
    let session: { sessionId: string; token: string };
    try {
      session = (await (await fetch(`${first.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
        sessionId: string;
        token: string;
      };
    } finally {
      await first.close();
    }
    const second = await startDev(tree, options, out);
    try {
      const send = (token: string) =>
        fetch(`${second.url}/api/v1/sessions/${session.sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-token': token },
          body: JSON.stringify({ message: 'ciao' }),
        });
      const answered = await send(session.token);
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { messages: { content: string }[] }).messages[0]!.content).toBe(
        'v1 r',
      );
      expect((await send('x'.repeat(43))).status).toBe(403);
    } finally {
      await second.close();
    }
  });

  test('debug is on by default only on loopback; --no-debug turns it off; foreign Host names are refused', async () => {
    const tree = join(scratch, 'debug-tree.ts');
    writeFileSync(join(scratch, 'answer.ts'), "export const answer = 'v1';\n");
    writeFileSync(tree, treeSource('d'));
    const out: Output = { log: () => {}, write: () => {}, error: () => {} };
    const route = (url: string) =>
      fetch(`${url}/api/v1/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'ciao' }),
      });
    const cases: [Partial<DevOptions>, number][] = [
      [{}, 200],
      [{ debug: false }, 404],
      [{ host: '0.0.0.0' }, 404],
      [{ host: '0.0.0.0', debug: true }, 200],
    ];
    for (const [options, status] of cases) {
      const dev = await startDev(
        tree,
        { port: '0', data: join(scratch, 'debug-data'), watch: false, ...options },
        out,
      );
      try {
        const url = dev.url.replace('0.0.0.0', '127.0.0.1');
        expect((await route(url)).status, JSON.stringify(options)).toBe(status);
        // The developer's chat page, with debug or without (treeagent serve's is the customer's).
        const settings = await fetch(`${url}/web-settings.json`);
        expect(await settings.json(), JSON.stringify(options)).toEqual({ view: 'developer' });
        if (!options.host) {
          const port = new URL(url).port;
          const hostStatus = (host: string) =>
            new Promise<number>((resolve, reject) => {
              const req = request(
                { host: '127.0.0.1', port, path: '/api/v1/tree', headers: { host } },
                (res) => {
                  res.resume();
                  resolve(res.statusCode ?? 0);
                },
              );
              req.on('error', reject);
              req.end();
            });
          expect(await hostStatus('rebound.attacker.example')).toBe(403);
          expect(await hostStatus(`localhost:${port}`)).toBe(200);
        }
      } finally {
        await dev.close();
      }
    }
  });
});
