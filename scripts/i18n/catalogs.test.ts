import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogProblems } from './catalog-parity.js';

const LOCALES = join(import.meta.dirname, '../../packages/server/locales');

function catalogs(files: Record<string, unknown>): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-locales-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(directory, path, '..'), { recursive: true });
    writeFileSync(join(directory, path), JSON.stringify(content));
  }
  return directory;
}

describe('the message catalogs (packages/server/locales)', () => {
  it('have every key of English in every language, no other key, and the same {{variables}}', () => {
    // The widget's catalogs are its own bundle's and checked with it.
    expect(catalogProblems(LOCALES, ['widget'])).toEqual([]);
  });

  it('name the file and key of a missing, extra or mistranslated key, and a missing plural form', () => {
    const directory = catalogs({
      'en/chat.json': {
        send: 'Send',
        hello: 'Hello {{name}}',
        files_one: '{{count}} file',
        files_other: '{{count}} files',
      },
      'it/chat.json': { send: 'Invia', hello: 'Ciao {{nome}}', files_one: '{{count}} file', extra: 'x' },
      'it/console.json': {},
      'es/chat.json': {
        send: 'Enviar',
        hello: 'Hola {{name}}',
        files_one: '{{count}} archivo',
        files_many: '{{count}} de archivos',
        files_other: '{{count}} archivos',
      },
    });
    expect(catalogProblems(directory)).toEqual([
      'it/console.json has no en/console.json: remove it or add the English catalog.',
      'it/chat.json: key "hello" uses {{nome}}; the English text uses {{name}}.',
      'it/chat.json: key "files_many" is missing: it needs the plural form "many".',
      'it/chat.json: key "files_other" is missing: it needs the plural form "other".',
      'it/chat.json: key "extra" is not in en/chat.json: remove it or add it there.',
    ]);
    const missing = catalogs({
      'en/chat.json': { send: 'Send' },
      'en/tree.json': { a: 'A' },
      'es/chat.json': {},
    });
    // Spanish counts "1 millón de archivos" with the form "many" (Intl.PluralRules): it needs one.
    expect(catalogProblems(missing).filter((problem) => !problem.includes('"many"'))).toEqual([
      'es/chat.json: key "send" is missing (en: "Send").',
      'es/tree.json is missing: copy en/tree.json and translate it.',
    ]);
  });
});
