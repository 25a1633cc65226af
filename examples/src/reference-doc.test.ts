import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Context,
  defineTree,
  ExploreStrategy,
  FileAgent,
  MemoryAgent,
  NODE_TYPES,
  SessionState,
  TreeAgent,
} from '@treeagent/core';
import { describe, expect, test } from 'vitest';
// The validation tables are internal to core (not exported): the repository's own test reads them from the source.
import {
  CALLBACKS_BY_TYPE,
  COMMON_PROPERTIES,
  PROPERTIES_BY_TYPE,
} from '../../packages/core/src/tree/constants.js';

/** docs/reference.md cannot drift from the code: its tables are compared with what the code accepts. */
const text = readFileSync(fileURLToPath(new URL('../../docs/reference.md', import.meta.url)), 'utf8');

function rows(section: string): { name: string; kind: string }[] {
  const start = text.indexOf(section);
  expect(start, `docs/reference.md has a section "${section}"`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + section.length);
  const end = rest.search(/\n#{2,3} /);
  const body = end < 0 ? rest : rest.slice(0, end);
  return [...body.matchAll(/^\| `([A-Za-z]+)` \| (\w+) \|/gm)].map((match) => ({
    name: match[1]!,
    kind: match[2]!,
  }));
}

describe('docs/reference.md', () => {
  test('lists exactly the properties of every node', () => {
    expect(
      rows('## Properties of every node')
        .map((row) => row.name)
        .sort(),
    ).toEqual([...COMMON_PROPERTIES].sort());
  });

  test.each(NODE_TYPES)('lists exactly the properties and callbacks of %s nodes', (type) => {
    const listed = rows(`### \`${type}\``);
    expect(
      listed
        .filter((row) => row.kind === 'property')
        .map((row) => row.name)
        .sort(),
    ).toEqual([...PROPERTIES_BY_TYPE[type]].sort());
    expect(
      listed
        .filter((row) => row.kind === 'callback')
        .map((row) => row.name)
        .sort(),
    ).toEqual([...CALLBACKS_BY_TYPE[type]].sort());
  });

  test('lists exactly the fields of the context callbacks receive', async () => {
    let seen: Context | undefined;
    const tree = defineTree({
      nodes: [
        {
          id: 1,
          type: 'root',
          beforeRun: (_self, context) => {
            seen = context;
          },
        },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['x'],
          emit: { message: { type: 'static', content: 'x' } },
        },
      ],
    });
    await new TreeAgent({ tree }).send('s', 'x');
    const fields = new Set<string>();
    for (
      let object: object | null = seen!;
      object && object !== Object.prototype;
      object = Object.getPrototypeOf(object)
    ) {
      for (const key of Object.getOwnPropertyNames(object))
        if (key !== 'constructor' && key !== 'incrementFailCounter') fields.add(key);
    }
    expect(
      rows('## Context')
        .map((row) => row.name)
        .sort(),
    ).toEqual([...fields].sort());
    expect(seen!.sessionState).toBeInstanceOf(SessionState);
    expect(seen!.exploreStrategy).toBeInstanceOf(ExploreStrategy);
    expect(seen!.memoryAgent).toBeInstanceOf(MemoryAgent);
    expect(seen!.fileAgent).toBeInstanceOf(FileAgent);
  });
});
