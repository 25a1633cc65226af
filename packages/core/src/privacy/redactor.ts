import { TreeAgentError } from '../errors/tree-agent-error.js';
import { BUILT_IN_DETECTORS, DETECTOR_NAMES, type Detector, type DetectorName } from './detectors.js';
import { findMatches } from './regex-detector.js';

/** A pattern of your own to redact (a customer number, a ticket id). */
export interface RedactionPattern {
  /** Shown in the placeholder: `[name]`. Letters, digits, `-` and `_`. */
  name: string;
  /** A regular expression (its flags are kept; `g` is added). */
  pattern: RegExp | string;
  /** Keeps only the matches for which it returns true. */
  check?: (match: string) => boolean;
}

/**
 * What to redact, and what the live turn may still see (docs/privacy.md).
 *
 * @example
 * new TreeAgent({ tree, redaction: { patterns: [{ name: 'order', pattern: /ORD-\d{6}/ }], liveTurn: ['email'] } })
 */
export interface RedactionOptions {
  /** Built-in detectors to run, always in `DETECTOR_NAMES`' order. Default: all of them. */
  detectors?: readonly DetectorName[];
  /** Custom patterns, run after the built-in detectors. */
  patterns?: readonly RedactionPattern[];
  /**
   * Detectors (built-in or custom names) whose values the live turn still sees: the tree's callbacks and
   * models get the original text, and only what is stored (history, turn facts, logs) is redacted.
   * Default: none — the turn itself sees the placeholders.
   */
  liveTurn?: readonly string[];
}

/** The result of redacting a text. */
export interface Redaction {
  text: string;
  /** Names of the detectors that found something, once each. */
  found: string[];
}

/**
 * Replaces personal data with `[detector]` placeholders before anything is stored. Built from
 * `RedactionOptions`; `redact` is for what is stored, `redactLive` for what the live turn sees.
 */
export class Redactor {
  readonly #stored: Detector[];
  readonly #live: Detector[];

  constructor(options: RedactionOptions = {}) {
    const names = options.detectors ?? DETECTOR_NAMES;
    const detectors: Detector[] = [];
    for (const name of names) {
      if (!DETECTOR_NAMES.includes(name)) {
        throw new TreeAgentError(
          'INVALID_INPUT',
          `redaction.detectors: unknown detector "${name}". Use one of ${DETECTOR_NAMES.join(', ')}, or add a custom pattern under redaction.patterns.`,
        );
      }
    }
    // Always in DETECTOR_NAMES' order, whatever the order given: where two detectors could read the
    // same characters, the more specific wins (a spaced IBAN is not cut into a phone number).
    for (const name of DETECTOR_NAMES) if (names.includes(name)) detectors.push(BUILT_IN_DETECTORS[name]);
    for (const custom of options.patterns ?? []) detectors.push(customDetector(custom));
    const known = new Set(detectors.map((detector) => detector.name));
    for (const name of options.liveTurn ?? []) {
      if (!known.has(name)) {
        throw new TreeAgentError(
          'INVALID_INPUT',
          `redaction.liveTurn: "${name}" is not a detector in use (${[...known].join(', ')}). Name a built-in detector listed in redaction.detectors or a custom pattern's name.`,
        );
      }
    }
    const live = new Set(options.liveTurn ?? []);
    this.#stored = detectors;
    this.#live = detectors.filter((detector) => !live.has(detector.name));
  }

  /** The text as it may be stored: every detector's findings replaced. */
  redact(text: string): Redaction {
    return apply(this.#stored, text);
  }

  /** The text as the live turn sees it: the detectors not listed in `liveTurn` replaced. */
  redactLive(text: string): Redaction {
    return apply(this.#live, text);
  }

  /** `redact(text).text`, keeping `null` and `undefined`. */
  redactText<T extends string | null | undefined>(text: T): T {
    return (typeof text === 'string' ? apply(this.#stored, text).text : text) as T;
  }
}

/** Each detector in turn replaces its values in what the ones before it left (docs/privacy.md). */
function apply(detectors: readonly Detector[], text: string): Redaction {
  const found: string[] = [];
  let result = text;
  for (const detector of detectors) {
    const spans = detector.find(result);
    if (spans.length === 0) continue;
    let replaced = '';
    let from = 0;
    for (const span of spans) {
      replaced += `${result.slice(from, span.start)}[${detector.name}]`;
      from = span.end;
    }
    result = replaced + result.slice(from);
    found.push(detector.name);
  }
  return { text: result, found };
}

function customDetector(custom: RedactionPattern): Detector {
  if (!/^[A-Za-z0-9_-]+$/.test(custom.name ?? '')) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `redaction.patterns: the name "${custom.name}" is not valid. Use letters, digits, "-" and "_" (it becomes the placeholder "[name]").`,
    );
  }
  let pattern: RegExp;
  try {
    const source = custom.pattern;
    pattern =
      typeof source === 'string'
        ? new RegExp(source, 'g')
        : new RegExp(source.source, source.flags.includes('g') ? source.flags : `${source.flags}g`);
  } catch (error) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `redaction.patterns "${custom.name}": the pattern is not a valid regular expression (${(error as Error).message}). Fix the pattern.`,
      { cause: error },
    );
  }
  if (pattern.test('')) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `redaction.patterns "${custom.name}": the pattern matches the empty string, so it would redact nothing useful everywhere. Make it match at least one character.`,
    );
  }
  return { name: custom.name, find: (text) => findMatches(text, pattern, custom.check) };
}
