import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TreeAgentError } from '@treeagent/core';
import { verifyOperatorPassword } from '@treeagent/server';
import { afterAll, describe, expect, test } from 'vitest';
import { capture } from '../test-support/capture.js';
import { startDev } from './dev.js';
import { operatorPasswordCommand } from './operator-password.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const tree = `import { defineTree } from '@treeagent/core';
export default defineTree({ name: 'desk', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit: { message: { type: 'static', content: 'ciao' } } },
] });
`;

describe('treeagent operator-password and dev --operators', () => {
  test('operator-password hashes the password on standard input; a short one is refused', async () => {
    const out = capture();
    expect(await operatorPasswordCommand(out, Readable.from(['a password of the desk\n']))).toBe(0);
    expect(await verifyOperatorPassword('a password of the desk', out.lines[0]!)).toBe(true);
    await expect(operatorPasswordCommand(capture(), Readable.from(['short']))).rejects.toThrow(/at least 12/);
  });

  test('dev --operators lets the operators log in; logins and the audit log live in the data directory', async () => {
    const out = capture();
    await operatorPasswordCommand(out, Readable.from(['a password of the desk']));
    const operators = join(scratch, 'operators.json');
    writeFileSync(
      operators,
      JSON.stringify({
        operators: [{ id: 'anna', name: 'Anna', role: 'admin', passwordHash: out.lines[0] }],
      }),
    );
    writeFileSync(join(scratch, 'tree.ts'), tree);
    const lines = capture();
    const dev = await startDev(
      join(scratch, 'tree.ts'),
      { port: '0', data: join(scratch, 'data'), operators, watch: false },
      lines,
    );
    try {
      expect(lines.lines.join('\n')).toContain(`Operator console: ${dev.url}/staff/console`);
      const login = await fetch(`${dev.url}/api/v1/operator/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'anna', password: 'a password of the desk' }),
      });
      expect(login.status).toBe(200);
      const token = /treeagent_operator=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
      const audit = await fetch(`${dev.url}/api/v1/operator/audit`, {
        headers: { 'x-operator-token': token },
      });
      expect(((await audit.json()) as { entries: { action: string }[] }).entries[0]!.action).toBe(
        'operator.login',
      );
    } finally {
      await dev.close();
    }
  });

  test('a broken operators file is an INVALID_INPUT error naming the file', async () => {
    const operators = join(scratch, 'broken.json');
    writeFileSync(
      operators,
      JSON.stringify({ operators: [{ id: 'x', name: 'X', role: 'operator', passwordHash: 'plain' }] }),
    );
    const error = await startDev(
      join(scratch, 'tree.ts'),
      { port: '0', data: join(scratch, 'data2'), operators },
      capture(),
    ).catch((caught: unknown) => caught);
    expect(TreeAgentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(operators);
  });
});
