/** One step of a parsed payload key: an object key, an array index (`[2]`) or every element (`[]`). */
export type PathStep =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'each' };

/** Walk outcome: the path reached no value, reached values none of which hit, or hit. */
export const NONE = 0;
export const SEEN = 1;
export const HIT = 2;
export type WalkResult = typeof NONE | typeof SEEN | typeof HIT;

/** Called on every value a path reaches; returns true to stop the walk with a hit. */
export type Visit = (value: unknown) => boolean;
/** A compiled path: walks `root` and calls `visit` on each value the path reaches. */
export type PathWalker = (root: unknown, visit: Visit) => WalkResult;

const plainKey = /^[^.[\]"]+/;
const bracket = /^\[(\d*)\]/;

/**
 * Parses a Qdrant payload key: `a.b.c` for nested objects, `a[].b` for every element of an
 * array, `a[0].b` for one element, `"a.b".c` for a key holding a dot. Returns the steps, or a
 * sentence describing what is wrong.
 */
export function parsePath(path: string): PathStep[] | string {
  if (path.length === 0) return 'the key is empty';
  const steps: PathStep[] = [];
  let rest = path;
  for (;;) {
    if (rest.startsWith('"')) {
      const end = rest.indexOf('"', 1);
      if (end < 0) return `unterminated quote in "${path}"`;
      steps.push({ kind: 'key', key: rest.slice(1, end) });
      rest = rest.slice(end + 1);
    } else {
      const m = plainKey.exec(rest);
      if (!m) return `expected a key name at "${rest}" in "${path}"`;
      steps.push({ kind: 'key', key: m[0] });
      rest = rest.slice(m[0].length);
    }
    for (let b = bracket.exec(rest); b; b = bracket.exec(rest)) {
      steps.push(b[1] === '' ? { kind: 'each' } : { kind: 'index', index: Number(b[1]) });
      rest = rest.slice(b[0].length);
    }
    if (rest.length === 0) return steps;
    if (!rest.startsWith('.') || rest.length === 1) return `unexpected "${rest}" in "${path}"`;
    rest = rest.slice(1);
  }
}

/**
 * Compiles parsed steps into a walker. Like Qdrant, a `.key` step only descends into objects
 * (write `[]` to go through an array), a missing key yields no value, and an explicit `null`
 * at the end of the path is a value.
 */
export function compilePath(steps: readonly PathStep[]): PathWalker {
  let walker: PathWalker = (node, visit) => (visit(node) ? HIT : SEEN);
  for (let i = steps.length - 1; i >= 0; i--) walker = compileStep(steps[i]!, walker);
  return walker;
}

function compileStep(step: PathStep, next: PathWalker): PathWalker {
  switch (step.kind) {
    case 'key': {
      const key = step.key;
      return (node, visit) => {
        if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) {
          return NONE;
        }
        const value = (node as Record<string, unknown>)[key];
        return value === undefined ? NONE : next(value, visit);
      };
    }
    case 'index': {
      const index = step.index;
      return (node, visit) =>
        Array.isArray(node) && index < node.length && node[index] !== undefined
          ? next(node[index], visit)
          : NONE;
    }
    case 'each':
      return (node, visit) => {
        if (!Array.isArray(node)) return NONE;
        let result: WalkResult = NONE;
        for (const element of node) {
          if (element === undefined) continue;
          const r = next(element, visit);
          if (r === HIT) return HIT;
          if (r === SEEN) result = SEEN;
        }
        return result;
      };
  }
}
