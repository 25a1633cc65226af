import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main as treeagent } from '@treeagent/cli';
import { formatTreeDocument } from '@treeagent/core/document';
import { afterAll, describe, expect, test } from 'vitest';
import { type Io, main } from './main.js';

// Inside the repository, so that the generated tree resolves @treeagent/core to its source.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function io(
  answers: string[] = [],
  interactive = false,
): Io & { out: string[]; err: string[]; asked: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  return {
    interactive,
    out,
    err,
    asked,
    ask: async (question) => {
      asked.push(question);
      return answers.shift() ?? '';
    },
    log: (line) => out.push(line),
    error: (line) => err.push(line),
  };
}

const quiet = { log: () => {}, write: () => {}, error: () => {} };

describe('npm create treeagent', () => {
  for (const [lang, template, format] of [
    ['en', 'minimal', 'json'],
    ['en', 'support', 'json'],
    ['it', 'minimal', 'json'],
    ['it', 'support', 'json'],
    ['en', 'minimal', 'ts'],
    ['it', 'support', 'ts'],
  ] as const) {
    test(`--lang ${lang} --template ${template} --format ${format}: a project whose tree lints clean and passes its conversation tests`, async () => {
      const directory = join(scratch, `${lang}-${template}-${format}`);
      expect(await main([directory, '--lang', lang, '--template', template, '--format', format], io())).toBe(
        0,
      );
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
      expect(Object.keys(manifest.scripts)).toEqual(['dev', 'chat', 'test', 'eval', 'fit', 'lint']);
      expect(manifest.dependencies['@treeagent/core']).toMatch(/^\^\d+\.\d+\.\d+/);
      // The fit `npm run fit` makes ahead (src/tree.fit.json) ships with the project: not ignored.
      expect(readFileSync(join(directory, '.gitignore'), 'utf8')).not.toMatch(/fit/);
      // An English project installs USE-lite's ONNX Runtime without fetching its GPU libraries.
      if (lang === 'en')
        expect(readFileSync(join(directory, '.npmrc'), 'utf8')).toBe('onnxruntime-node-install=skip\n');
      else expect(existsSync(join(directory, '.npmrc'))).toBe(false);
      const tree = join(directory, format === 'json' ? 'src/tree.json' : 'src/tree.ts');
      expect(manifest.scripts.dev).toBe(
        `treeagent dev ${format === 'json' ? 'src/tree.json' : 'src/tree.ts'}`,
      );
      if (format === 'json') {
        // Written in the editor's stable layout: its first save changes only what was edited.
        const text = readFileSync(tree, 'utf8');
        expect(formatTreeDocument(JSON.parse(text))).toBe(text);
      }
      expect(await treeagent(['lint', tree, '--strict'], quiet)).toBe(0);
      expect(await treeagent(['test', tree, join(directory, 'tests')], quiet)).toBe(0);
      expect(
        await treeagent(
          [
            'eval',
            tree,
            join(directory, 'data/utterances.tsv'),
            '--min-accuracy',
            '1',
            '--data',
            join(scratch, 'data'),
          ],
          quiet,
        ),
      ).toBe(0);
    });
  }

  test('a directory that is not empty is refused with a clear message, exit code 2, nothing written', async () => {
    const directory = join(scratch, 'busy');
    mkdirSync(directory);
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    const output = io();
    expect(await main([directory], output)).toBe(2);
    expect(output.err.join('\n')).toContain(`The directory ${directory} is not empty (notes.txt)`);
    expect(readFileSync(join(directory, 'notes.txt'), 'utf8')).toBe('mine');
  });

  test('by default the tree is a JSON document with a typed callbacks module', async () => {
    const directory = join(scratch, 'default');
    expect(await main([directory], io())).toBe(0);
    const document = JSON.parse(readFileSync(join(directory, 'src/tree.json'), 'utf8'));
    expect(document).toMatchObject({ format: 'treeagent-tree', version: 1, module: './tree.callbacks.ts' });
    const callbacks = readFileSync(join(directory, 'src/tree.callbacks.ts'), 'utf8');
    expect(callbacks).toContain('export const readEmail: AfterCallback =');
    expect(callbacks).toContain('export const faqFound: QueryAfterCallback<FaqSelf> =');
  });

  test('a wrong flag value names the flag and the allowed values', async () => {
    const output = io();
    expect(await main([join(scratch, 'x'), '--lang', 'fr'], output)).toBe(2);
    expect(output.err.join('\n')).toContain('--lang must be one of en, it (got "fr")');
  });

  test('without a terminal and without a directory: a usage error, no question', async () => {
    const output = io();
    expect(await main([], output)).toBe(2);
    expect(output.asked).toEqual([]);
    expect(output.err.join('\n')).toContain('npm create treeagent@latest my-bot');
  });

  test('Ctrl+C or Ctrl+D at a question cancels quietly: exit 130, nothing written', async () => {
    const directory = join(scratch, 'cancelled');
    const output = io([directory], true);
    output.ask = async (question) => {
      output.asked.push(question);
      if (output.asked.length === 2) {
        const aborted = new Error('Aborted with Ctrl+C');
        aborted.name = 'AbortError';
        throw aborted;
      }
      return directory;
    };
    expect(await main([], output)).toBe(130);
    expect(output.err).toEqual(['Cancelled: nothing was written.']);
    expect(existsSync(directory)).toBe(false);
  });

  test('in a terminal, what the flags do not say is asked', async () => {
    const directory = join(scratch, 'asked');
    const output = io([directory, 'it', ''], true);
    expect(await main([], output)).toBe(0);
    expect(output.asked).toHaveLength(3);
    expect(readFileSync(join(directory, 'src/tree.json'), 'utf8')).toContain('Siamo aperti');
  });
});
