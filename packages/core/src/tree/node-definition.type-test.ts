import { defineTree } from './define-tree.js';

/**
 * Compile-time checks of the node definitions (never run): `tsc` fails if a line marked
 * `@ts-expect-error` stops being an error, so a callback a node type does not support (docs/concepts.md §2)
 * must stay a type error inside `defineTree`.
 */
export function typeTests(): void {
  defineTree({
    nodes: [
      { id: 1, type: 'root', init: () => undefined, beforeRun: () => undefined },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 3 }) },
      {
        id: 3,
        type: 'switch',
        parent: 2,
        before: () => undefined,
        // @ts-expect-error a switch node supports only `before`
        after: () => undefined,
      },
      {
        id: 4,
        type: 'guardrail',
        parent: 2,
        warning: 'Please stay polite.',
        // @ts-expect-error a guardrail node has no callbacks
        before: () => undefined,
      },
      {
        id: 5,
        type: 'emit',
        parent: 2,
        before: () => undefined,
        after: () => undefined,
        emit: { message: { type: 'static', content: 'Hi' } },
        // @ts-expect-error fallback belongs to agent nodes, not to emit nodes
        fallback: () => ({ nodeTarget: 3 }),
      },
    ],
  });

  // The same nodes without the unsupported callbacks type-check.
  defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 3 }) },
      { id: 3, type: 'switch', parent: 2, before: () => undefined },
      { id: 4, type: 'guardrail', parent: 2, warning: { type: 'generated', prompt: 'Warn them.' } },
      { id: 5, type: 'emit', parent: 2, after: () => ({ nodeTarget: 3, step: 'before' }) },
    ],
  });
}
