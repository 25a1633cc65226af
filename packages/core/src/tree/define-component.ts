import type { ComponentDefinition, Self } from './node-definition.js';

/**
 * Declares a reusable component (docs/concepts.md §8): nodes with local ids, one `head` whose single child is
 * the entry, and an optional `tail`. Use it in a tree with `{ type: 'component', use, idBase }`;
 * each use gets ids `idBase + localId` and its own `self`.
 *
 * @example
 * const knowledge = defineComponent({ name: 'knowledge', nodes: [
 *   { id: 1, type: 'head', init: (self) => { self.attempts = 0; } },
 *   { id: 2, type: 'query', parent: 1 },
 *   { id: 3, type: 'tail', parent: 2 },
 * ] });
 */
export function defineComponent<S extends Self = Self>(
  component: ComponentDefinition<S>,
): ComponentDefinition<S> {
  return component;
}
