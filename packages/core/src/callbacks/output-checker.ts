import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { LocalizedText } from '../protocol/localized-text.js';
import { LANGUAGE_CODE_PATTERN } from '../tree/localized-text.js';

/** Collects what is wrong with a callback's output, naming node, callback and field. */
export class OutputChecker {
  readonly #nodeId: number;
  readonly #callback: string;

  constructor(nodeId: number, callback: string) {
    this.#nodeId = nodeId;
    this.#callback = callback;
  }

  /** Throws `INVALID_CALLBACK_OUTPUT` for `field`, saying what was expected and what came. */
  fail(field: string, expected: string, got: unknown): never {
    const where = field ? `field "${field}"` : 'the output';
    throw new TreeAgentError(
      'INVALID_CALLBACK_OUTPUT',
      `The "${this.#callback}" callback of node ${this.#nodeId} returned an invalid output: ${where} must be ${expected}, got ${describe(got)}.`,
      { nodeId: this.#nodeId, callback: this.#callback, details: { field, expected } },
    );
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(field, 'an object', value);
    return value as Record<string, unknown>;
  }

  /** Rejects keys that the output type does not have (typos would otherwise be silently ignored). */
  knownKeys(value: Record<string, unknown>, field: string, keys: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!keys.includes(key) && value[key] !== undefined) {
        this.fail(field ? `${field}.${key}` : key, `absent (known fields: ${keys.join(', ')})`, value[key]);
      }
    }
  }

  optionalString(value: unknown, field: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(field, 'a string', value);
    return value;
  }

  /** A text for the customer: a string, or an object of language code → string (`{ it, en }`). */
  optionalText(value: unknown, field: string): LocalizedText | undefined {
    if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
    if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
      this.fail(field, 'a string or one string per language ({ it: "…", en: "…" })', value);
    for (const [language, text] of Object.entries(value))
      if (!LANGUAGE_CODE_PATTERN.test(language) || typeof text !== 'string')
        this.fail(`${field}.${language}`, 'a string keyed by a language code ("it", "en", "pt-BR")', text);
    return value as LocalizedText;
  }

  optionalNodeId(value: unknown, field: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Number.isInteger(value)) this.fail(field, 'an integer node id', value);
    return value as number;
  }

  optionalBoolean(value: unknown, field: string): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') this.fail(field, 'a boolean', value);
    return value;
  }

  optionalNumber(value: unknown, field: string, min: number, max: number): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !(value >= min && value <= max))
      this.fail(field, `a number in [${min}, ${max}]`, value);
    return value;
  }

  oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T | undefined {
    if (value === undefined || value === null) return undefined;
    if (!allowed.includes(value as T))
      this.fail(field, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value);
    return value as T;
  }

  optionalArray(value: unknown, field: string): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) this.fail(field, 'an array', value);
    return value;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}
