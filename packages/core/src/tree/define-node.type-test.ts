import { expectTypeOf } from 'vitest';
import type { Context } from '../context/context.js';
import { defineNode, type LlmAfterCallback } from './define-node.js';
import { defineTree } from './define-tree.js';
import type { Links } from './links.js';
import type { EmitAfterSpecial, LlmAfterSpecial } from './specials.js';

/**
 * Compile-time checks (never run): a node built in a conditional keeps the contextual types of its
 * callbacks through `defineNode`, an unknown key is an error, and the llm node's callback types are
 * exported.
 */
export function typeTests(withModel: boolean): void {
  const advice = withModel
    ? defineNode({
        id: 40,
        type: 'llm',
        parent: 2,
        after: (self, context, special, links) => {
          expectTypeOf(special).toEqualTypeOf<LlmAfterSpecial>();
          expectTypeOf(context).toEqualTypeOf<Context>();
          expectTypeOf(links).toEqualTypeOf<Links>();
          self.answer = special.text;
          return { nodeTarget: 41 };
        },
      })
    : defineNode({
        id: 40,
        type: 'emit',
        parent: 2,
        emit: { message: { type: 'static', content: 'Offline.' } },
        after: (_self, _context, special) => {
          expectTypeOf(special).toEqualTypeOf<EmitAfterSpecial>();
        },
      });
  defineNode({
    id: 42,
    type: 'emit',
    parent: 2,
    // @ts-expect-error `mute` is not a node key (it is `isMute`)
    mute: true,
  });
  const typedAfter: LlmAfterCallback<{ answer?: string }> = (self, _context, special) => {
    self.answer = special.text;
    expectTypeOf(special.object).toEqualTypeOf<unknown>();
  };
  defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      advice,
      { id: 43, type: 'llm', parent: 2, after: typedAfter },
    ],
  });
}
