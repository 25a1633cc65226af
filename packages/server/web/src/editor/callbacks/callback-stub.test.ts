import { describe, expect, it } from 'vitest';
import { stubCallbacksOf, stubName, stubTypeOf, withStub, withTypeImport } from './callback-stub';

const MODULE = `// The callbacks.
import type {
  AfterCallback,
  EmitCallback,
} from '@treeagent/core';

export const done: EmitCallback = () => ({ message: { type: 'static', content: 'ok' } });
`;

describe('callback stubs', () => {
  it('offers before, and after on the types whose after has an exported type', () => {
    expect(stubCallbacksOf('emit', ['before', 'prompt', 'emit', 'after'])).toEqual(['before', 'after']);
    expect(stubCallbacksOf('switch', ['before'])).toEqual(['before']);
    expect(stubCallbacksOf('agent', ['fallback'])).toEqual([]);
    expect(stubTypeOf('query', 'after')).toBe('QueryAfterCallback');
    expect(stubTypeOf('switch', 'before')).toBe('BeforeCallback');
  });

  it('names the stub after the node, unique in the module', () => {
    expect(stubName({ id: 31, name: 'ask email' }, 'before', MODULE)).toBe('askEmailBefore');
    expect(stubName({ id: 12 }, 'after', MODULE)).toBe('node12After');
    expect(stubName({ id: 12, name: '2nd step' }, 'before', '')).toBe('node2ndStepBefore');
    expect(stubName({ id: 31, name: 'ask email' }, 'before', 'export const askEmailBefore = 1;')).toBe(
      'askEmailBefore2',
    );
  });

  it('adds the type to the existing type import, or a new import', () => {
    expect(withTypeImport(MODULE, 'BeforeCallback')).toContain(
      "import type {\n  AfterCallback,\n  BeforeCallback,\n  EmitCallback,\n} from '@treeagent/core';",
    );
    expect(withTypeImport(MODULE, 'EmitCallback')).toBe(MODULE);
    expect(withTypeImport('export const a = 1;\n', 'BeforeCallback')).toBe(
      "import type { BeforeCallback } from '@treeagent/core';\n\nexport const a = 1;\n",
    );
  });

  it('appends the stub and says on which line it starts', () => {
    const { text, line } = withStub(MODULE, {
      name: 'greetingBefore',
      callback: 'before',
      nodeType: 'emit',
      nodeId: 10,
      nodeName: 'greeting',
    });
    expect(text.split('\n')[line - 1]).toBe(
      'export const greetingBefore: BeforeCallback = async (_self, _context) => {',
    );
    expect(text).toContain('/** The before callback of node 10 "greeting". */');
    expect(text.startsWith('// The callbacks.\nimport type {\n  AfterCallback,\n  BeforeCallback,')).toBe(
      true,
    );
  });
});
