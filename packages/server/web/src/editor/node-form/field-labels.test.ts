import { readFileSync } from 'node:fs';
import { TREE_DOCUMENT_SCHEMA } from '@treeagent/core/document';
import { describe, expect, it } from 'vitest';
import { schemaPropertyNames } from './field-labels';
import type { FieldSchema } from './schema-field-model';

const catalog = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../../locales/${language}/editor.json`, import.meta.url), 'utf8'),
  ) as { fieldLabels?: Record<string, string> };

describe("the inspector's field labels", () => {
  const names = schemaPropertyNames(
    TREE_DOCUMENT_SCHEMA.$defs.node as FieldSchema,
    TREE_DOCUMENT_SCHEMA as { $defs: Record<string, unknown> },
  );

  it('reads the property names from the schema, nested ones included', () => {
    for (const name of ['model', 'similarityThreshold', 'systemPrompt', 'chunkQty', 'attemptsLimit'])
      expect(names).toContain(name);
  });

  for (const language of ['en', 'it', 'es'])
    it(`has a label for every schema property in ${language}`, () => {
      const labels = catalog(language).fieldLabels ?? {};
      const missing = names.filter((name) => typeof labels[name] !== 'string' || !labels[name]!.trim());
      expect(
        missing,
        `add fieldLabels.<name> to locales/${language}/editor.json for: ${missing.join(', ')}`,
      ).toEqual([]);
    });
});
