import { TREE_DOCUMENT_SCHEMA } from '@treeagent/core/client';
import { describe, expect, test } from 'vitest';
import { schemaPropertiesOf } from './node-form-model';
import { type FieldSchema, kindOf, parseField, problemsAt, withKey } from './schema-field-model';

const node = TREE_DOCUMENT_SCHEMA.$defs.node.properties as Record<string, FieldSchema>;
const sub = (property: string, key: string) =>
  (node[property]!.properties as Record<string, FieldSchema>)[key]!;
const kind = (schema: FieldSchema, value?: unknown) => kindOf(schema, value, TREE_DOCUMENT_SCHEMA);

describe('kindOf: one field per JSON type of the tree document schema', () => {
  test('strings, numbers, booleans, lists of strings, objects with listed properties, other JSON', () => {
    expect(kind(node.model!)).toBe('text');
    expect(kind(node.maxToolSteps!)).toBe('number');
    expect(kind(sub('query', 'threshold'))).toBe('number');
    expect(kind(node.smartExtendedMessage!)).toBe('boolean');
    expect(kind(node.topics!)).toBe('list');
    expect(kind(node.query!)).toBe('object');
    expect(kind(node.responseFormat!)).toBe('object');
    expect(kind(sub('responseFormat', 'schema'))).toBe('json');
    expect(kind(node.tools!)).toBe('json');
    expect(kind(sub('emit', 'sources'))).toBe('json');
    expect(kind(sub('emit', 'waitInteraction'))).toBe('boolean');
    expect(kind(node.type!)).toBe('enum');
  });

  test('a text or a text per language: a text field for a string, JSON for an object', () => {
    expect(kind(node.conversationGoal!)).toBe('text');
    expect(kind(node.conversationGoal!, 'Sell a plan')).toBe('text');
    expect(kind(node.conversationGoal!, { en: 'Sell', it: 'Vendere' })).toBe('json');
  });
});

describe('parseField', () => {
  test('blank removes the property; numbers, integers, lines and JSON are parsed', () => {
    expect(parseField('number', node.maxToolSteps!, ' ')).toEqual({ value: undefined });
    expect(parseField('number', node.maxToolSteps!, '4')).toEqual({ value: 4 });
    expect(parseField('number', sub('query', 'threshold'), '0.25')).toEqual({ value: 0.25 });
    expect(parseField('list', node.topics!, 'plans\n\n roaming \n')).toEqual({ value: ['plans', 'roaming'] });
    expect(parseField('json', node.tools!, '{"a": {"parameters": {}}}')).toEqual({
      value: { a: { parameters: {} } },
    });
  });

  test('what cannot be written is refused with its reason, nothing is written', () => {
    expect(parseField('number', node.maxToolSteps!, 'five')).toEqual({ error: 'notNumber' });
    expect(parseField('number', node.maxToolSteps!, '2.5')).toEqual({ error: 'notInteger' });
    expect(parseField('json', node.tools!, '{a:')).toMatchObject({ error: 'notJson' });
    // A list field's message shows a list, not an object.
    expect(parseField('json', sub('emit', 'sources'), '[{a:')).toMatchObject({ error: 'notJsonList' });
    expect(parseField('json', node.tools!, '[1]')).toEqual({ error: 'notObject' });
  });
});

test('withKey sets, removes, and drops an object left empty', () => {
  expect(withKey(undefined, 'chunkQty', 3)).toEqual({ chunkQty: 3 });
  expect(withKey({ chunkQty: 3, query: 'x' }, 'chunkQty', undefined)).toEqual({ query: 'x' });
  expect(withKey({ chunkQty: 3 }, 'chunkQty', undefined)).toBeUndefined();
});

test("problemsAt: the check's problems about one property, by JSON pointer or by its quoted name", () => {
  const problems = [
    {
      nodeId: 3,
      message: 'at /nodes/2/query/chunkQty (node 3): chunkQty must be 1 or more; it is 0.',
      fix: 'Set chunkQty to a value of 1 or more.',
    },
    { nodeId: 3, message: 'at /nodes/2/query: unknown property "x".', fix: 'Remove it.' },
    { nodeId: 3, message: '"maxToolSteps" is 0: it must be a positive integer.', fix: 'Set 5.' },
  ];
  expect(problemsAt(problems, ['query', 'chunkQty'])).toEqual([problems[0]]);
  expect(problemsAt(problems, ['query'])).toEqual([problems[0], problems[1]]);
  expect(problemsAt(problems, ['maxToolSteps'])).toEqual([problems[2]]);
});

describe('schemaPropertiesOf: the fields each node type gets beyond its sections', () => {
  test('llm: model, tools, maxToolSteps, prompt, responseFormat; a callback replaces its constant', () => {
    expect(schemaPropertiesOf('llm', {})).toEqual([
      'model',
      'tools',
      'maxToolSteps',
      'prompt',
      'responseFormat',
    ]);
    expect(schemaPropertiesOf('llm', { prompt: 'buildPrompt' })).not.toContain('prompt');
  });

  test('query, root, guardrail, emit, and none for an empty node', () => {
    expect(schemaPropertiesOf('query', {})).toEqual(['query']);
    expect(schemaPropertiesOf('root', {})).toEqual([
      'model',
      'smartExtendedMessage',
      'conversationGoal',
      'topics',
      'exploreForRagChunks',
    ]);
    expect(schemaPropertiesOf('guardrail', {})).toEqual(['model']);
    expect(schemaPropertiesOf('emit', {})).toEqual(['model', 'tools', 'maxToolSteps', 'prompt']);
    expect(schemaPropertiesOf('empty', {})).toEqual([]);
  });
});
