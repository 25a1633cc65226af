import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const scratch = mkdtempSync(join(tmpdir(), 'treeagent-lint-languages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A JSON tree file in the scratch folder. */
function treeFile(name: string, tree: Record<string, unknown>): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify(tree));
  return file;
}

const nodes = (content: unknown) => [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true, callbacks: {} },
  {
    id: 3,
    type: 'emit',
    parent: 2,
    name: 'saluto',
    chunks: ['ciao'],
    emit: { message: { type: 'static', content } },
  },
];

describe('treeagent lint: languages', () => {
  test('lists each text missing in a declared language (node, field, language) as a warning; an error with --missing-texts error', async () => {
    const file = treeFile('half-translated.json', {
      languages: ['it', 'en', 'es'],
      nodes: nodes({ it: 'Ciao!', en: 'Hi!' }),
    });
    const warned = capture();
    expect(await main(['lint', file], warned)).toBe(0);
    const text = warned.out.join('\n');
    expect(text).toMatch(
      /warning \[missing-text\] node 3: node 3 \("saluto"\): emit\.message\.content has no text in "es"; a session in es gets the it text\. Fix: Add es: "…" to emit\.message\.content of node 3\./,
    );
    expect(text).toMatch(/^0 errors, \d+ warning\(s\)$/m);

    const strict = capture();
    expect(await main(['lint', file, '--missing-texts', 'error'], strict)).toBe(1);
    expect(strict.out.join('\n')).toMatch(/error {3}\[missing-text\] node 3: .*"es"/);
    expect(strict.out.join('\n')).toMatch(/^1 error, \d+ warning\(s\)$/m);
  });

  test('a per-language text in a tree without languages is an error that says what to add', async () => {
    const file = treeFile('undeclared.json', { nodes: nodes({ it: 'Ciao!', en: 'Hi!' }) });
    const output = capture();
    expect(await main(['lint', file], output)).toBe(1);
    expect(output.out.join('\n')).toMatch(
      /error {3}\[undeclared-languages\] node 3: .*declares no languages.*Fix: Add languages: \["it", "en"\] to the tree/,
    );
  });

  test('a complete tree has no language finding; a bad --missing-texts is bad usage (exit 2)', async () => {
    const file = treeFile('complete.json', {
      languages: ['it', 'en'],
      nodes: nodes({ it: 'Ciao!', en: 'Hi!' }),
    });
    const output = capture();
    expect(await main(['lint', file, '--missing-texts', 'error'], output)).toBe(0);
    expect(output.out.join('\n')).not.toMatch(/missing-text|undeclared-languages/);
    const bad = capture();
    expect(await main(['lint', file, '--missing-texts', 'fatal'], bad)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/--missing-texts is "fatal": give "warning".*or "error"/);
  });
});
