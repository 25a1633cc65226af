import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('treeagent lint errors', () => {
  test('an llm node that can show nothing is an error that says what to add, and lint exits 1', async () => {
    const file = join(scratch, 'silent.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 40,
            type: 'llm',
            parent: 2,
            name: 'advice',
            chunks: ['advise me'],
            prompt: { prompt: 'Advise.' },
          },
        ],
      }),
    );
    const out = capture();
    expect(await main(['lint', file], out)).toBe(1);
    const text = out.lines.join('\n');
    expect(text).toMatch(/error {3}\[llm-shows-nothing\] node 40: llm node 40 \("advice"\) can show nothing/);
    expect(text).toContain('Fix: Add an emit child to node 40');
    expect(text).toMatch(/1 error, \d+ warning\(s\)/);
  });

  test('a JSON tree with "mute" is refused with "Did you mean isMute?"', async () => {
    const file = join(scratch, 'mute.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['hi'],
            mute: true,
            emit: { message: { type: 'static', content: 'hi' } },
          },
        ],
      }),
    );
    const out = capture();
    expect(await main(['lint', file], out)).not.toBe(0);
    expect(out.lines.join('\n')).toMatch(/unknown property "mute"\. Fix: Did you mean "isMute"\?/);
  });
});
