import type { AfterCallback, NodeDefinition, Self } from './node-definition.js';
import type { EmitAfterSpecial, EmptyAfterSpecial, LlmAfterSpecial, QueryAfterSpecial } from './specials.js';

/**
 * One node, typed as `defineTree` types its nodes: for a node written outside the `nodes` array — in a
 * variable, a function, or a conditional (`models.default ? defineNode({ type: 'llm', … }) : …`) —
 * whose callbacks would otherwise lose their contextual types (`special` of an llm node's `after` is
 * `LlmAfterSpecial`, not an implicit `any`), and whose unknown keys (`mute` for `isMute`) would not be
 * excess-property errors. Returns the node unchanged; `defineTree` validates it with the rest.
 *
 * @example
 * const advice = models.default
 *   ? defineNode({ id: 40, type: 'llm', parent: 2, after: (self, context, special) => { self.text = special.text; return { nodeTarget: 41 }; } })
 *   : defineNode({ id: 40, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'Offline.' } } });
 */
export function defineNode<S extends Self = Self>(node: NodeDefinition<S>): NodeDefinition<S> {
  return node;
}

/** The `after` of an llm node: its `special` holds the model's answer (`text`, `object`, …). */
export type LlmAfterCallback<S extends Self = Self> = AfterCallback<S, LlmAfterSpecial>;
/** The `after` of an emit node: its `special` holds the message sent and the option the user picked. */
export type EmitAfterCallback<S extends Self = Self> = AfterCallback<S, EmitAfterSpecial>;
/** The `after` of a query node: its `special` holds the query and the chunks it retrieved. */
export type QueryAfterCallback<S extends Self = Self> = AfterCallback<S, QueryAfterSpecial>;
/** The `after` of an empty node. */
export type EmptyAfterCallback<S extends Self = Self> = AfterCallback<S, EmptyAfterSpecial>;
