import { test } from 'vitest';

/**
 * Tests of a conformance suite that an implementation does not run, and why (as Hono's router
 * cases do). The reason is printed with the skipped test, so a skip is always explained.
 *
 * @example
 * describeEmbedder('HashedEmbedder', factory, {
 *   skip: [{ reason: 'local and synchronous: nothing to abort', tests: ['an aborted signal rejects the call'] }],
 * });
 */
export interface ConformanceSkip {
  /** Why these tests do not apply to the implementation; shown in the test report. */
  reason: string;
  /** Names of the suite's tests, exactly as the suite declares them. */
  tests: readonly string[];
}

/** Options every conformance suite takes. */
export interface ConformanceOptions {
  /** Tests this implementation skips, each with its reason. Naming a test the suite lacks is an error. */
  skip?: readonly ConformanceSkip[];
}

/**
 * Declares the tests of one suite with vitest, skipping the ones the skip list names (with their
 * reason in the test name). `done()` throws if the skip list names a test the suite does not have,
 * so a renamed test cannot leave a stale skip behind.
 */
export function conformanceCases(suite: string, options: ConformanceOptions = {}) {
  const reasons = new Map<string, string>();
  for (const { reason, tests } of options.skip ?? []) {
    if (!reason.trim()) throw new Error(`The ${suite} skip list has an entry without a reason: give one.`);
    for (const name of tests) reasons.set(name, reason);
  }
  const declared = new Set<string>();
  return {
    /** Declares one test of the suite. */
    test(name: string, body: () => Promise<void>, timeout?: number): void {
      declared.add(name);
      const reason = reasons.get(name);
      if (reason === undefined) test(name, body, timeout);
      else test.skip(`${name} (skipped: ${reason})`, body);
    },
    /** Checks the skip list against the declared tests. */
    done(): void {
      const unknown = [...reasons.keys()].filter((name) => !declared.has(name));
      if (unknown.length) {
        throw new Error(
          `The ${suite} skip list names ${unknown.map((name) => `"${name}"`).join(', ')}, which the suite does not have. Its tests are: ${[...declared].map((name) => `"${name}"`).join(', ')}.`,
        );
      }
    },
  };
}
