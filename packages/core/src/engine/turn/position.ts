import type { AfterSpecial } from '../../tree/specials.js';

/** Where the step loop is: the node and the step to run on it next. */
export type Position =
  | { step: 'explore'; nodeId: number; moved: boolean }
  | { step: 'before'; nodeId: number }
  | { step: 'execute'; nodeId: number }
  | { step: 'after'; nodeId: number; special: AfterSpecial }
  | { step: 'done' };
