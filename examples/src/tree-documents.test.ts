import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineTree, type Tree } from '@treeagent/core';
import {
  definitionToDocument,
  documentToDefinition,
  TREE_DOCUMENT_SCHEMA,
  validateTreeDocument,
} from '@treeagent/core/document';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bikeShopTree } from './bike-shop/tree.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every tree the examples define in code. */
const CODE_TREES: Record<string, () => Tree> = {
  'bike shop': () => bikeShopTree(),
  'bike shop (generative)': () => bikeShopTree({ generative: true }),
};

/** Every JSON tree document among the examples. */
function jsonTrees(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return jsonTrees(path);
    return name.endsWith('.json') && readFileSync(path, 'utf8').includes('"treeagent-tree"') ? [path] : [];
  });
}

describe('the published tree schema', () => {
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(
    TREE_DOCUMENT_SCHEMA,
  );

  it.each(Object.entries(CODE_TREES))(
    'accepts the %s exported as a document, which builds the same tree',
    (_, make) => {
      const tree = make();
      const callbacks: Record<string, unknown> = {};
      const document = definitionToDocument(tree.definition, {
        nameOf: (callback, nodeId, key) => {
          const name = `node${nodeId}${key.replaceAll('.', '_')}`;
          callbacks[name] = callback;
          return name;
        },
      });
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      expect(validateTreeDocument(document)).toEqual([]);
      expect(defineTree(documentToDefinition(document, callbacks)).contentHash).toBe(tree.contentHash);
    },
  );

  it('accepts every JSON tree file of the examples', () => {
    const files = jsonTrees(ROOT);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(
        validate(JSON.parse(readFileSync(file, 'utf8'))),
        `${file}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
  });
});
