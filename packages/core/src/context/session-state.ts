import { TreeAgentError } from '../errors/tree-agent-error.js';

/** A value that knows how to turn itself into JSON when the interaction ends. */
export interface Serializable {
  serialize(): unknown;
}

/**
 * The private, persistent key-value state of a session (docs/concepts.md §9, `session_state`).
 * Values must be JSON-serialisable or have a `serialize()` method; it is called when the
 * interaction ends, and later interactions see the serialised value.
 */
export class SessionState {
  #values: Map<string, unknown>;

  constructor(initial: Record<string, unknown> = {}) {
    this.#values = new Map(Object.entries(structuredClone(initial)));
  }

  /** The value of `key`, or `undefined`. */
  get<T = unknown>(key: string): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  /** Associates `value` with `key`. `undefined` deletes the key. */
  set(key: string, value: unknown): void {
    if (typeof key !== 'string' || key === '') {
      throw new TreeAgentError(
        'SESSION_STATE',
        `sessionState.set: the key must be a non-empty string, got ${String(key)}.`,
      );
    }
    if (value === undefined) this.#values.delete(key);
    else this.#values.set(key, value);
  }

  has(key: string): boolean {
    return this.#values.has(key);
  }

  delete(key: string): void {
    this.#values.delete(key);
  }

  /** Empties the whole state. */
  clear(): void {
    this.#values.clear();
  }

  keys(): string[] {
    return [...this.#values.keys()];
  }

  /**
   * The state as plain JSON: objects with `serialize()` are serialised, everything else is checked.
   * Throws a `SESSION_STATE` error naming the key when a value cannot be stored.
   */
  serialize(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of this.#values) out[key] = toJson(value, key);
    return out;
  }
}

function toJson(value: unknown, path: string, seen: Set<object> = new Set()): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw stateError(path, `the number ${value} is not valid JSON`);
  }
  if (typeof value !== 'object') throw stateError(path, `a ${typeof value} cannot be stored`);
  if (typeof (value as Partial<Serializable>).serialize === 'function') {
    return toJson((value as Serializable).serialize(), `${path}.serialize()`, seen);
  }
  if (seen.has(value)) throw stateError(path, 'the value contains a cycle');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, index) => toJson(item, `${path}[${index}]`, seen));
    if (value instanceof Date) return value.toISOString();
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw stateError(
        path,
        `an instance of ${value.constructor?.name ?? 'a class'} without a serialize() method`,
      );
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toJson(item, `${path}.${key}`, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function stateError(path: string, problem: string): TreeAgentError {
  return new TreeAgentError(
    'SESSION_STATE',
    `sessionState "${path}": ${problem}. Store plain JSON values, or objects with a serialize() method returning JSON.`,
    { details: { key: path } },
  );
}
