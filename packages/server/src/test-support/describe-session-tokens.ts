import { type ConformanceOptions, conformanceCases } from '@treeagent/core/conformance';
import { describe, expect } from 'vitest';
import type { SessionTokens } from '../auth/session-tokens.js';

/** A `SessionTokens` under test, and how to reopen it (a restart) and dispose of it. */
export interface SessionTokensFixture {
  tokens: SessionTokens;
  /** Another instance on the same storage (a restarted or second server process); absent for memory. */
  reopen?: () => Promise<SessionTokens>;
  dispose(): Promise<void>;
}

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/**
 * The behaviour every `SessionTokens` shares: the server's per-session token hashes are saved,
 * found, replaced and deleted, and — for a persistent one — seen by another instance.
 */
export function describeSessionTokens(
  name: string,
  open: () => Promise<SessionTokensFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (SessionTokens conformance)`, () => {
    const cases = conformanceCases(`SessionTokens conformance of ${name}`, options);
    cases.test('finds the hash saved for a session, and null for a session it never saw', async () => {
      const { tokens, dispose } = await open();
      try {
        await tokens.save('s1', HASH_A);
        expect(await tokens.find('s1')).toBe(HASH_A);
        expect(await tokens.find('s2')).toBeNull();
      } finally {
        await dispose();
      }
    });

    cases.test('a second save replaces the hash; delete forgets the session and only it', async () => {
      const { tokens, dispose } = await open();
      try {
        await tokens.save('s1', HASH_A);
        await tokens.save('s2', HASH_A);
        await tokens.save('s1', HASH_B);
        expect(await tokens.find('s1')).toBe(HASH_B);
        await tokens.delete('s1');
        await tokens.delete('never-saved');
        expect(await tokens.find('s1')).toBeNull();
        expect(await tokens.find('s2')).toBe(HASH_A);
      } finally {
        await dispose();
      }
    });

    cases.test(
      'a persistent store is seen by another instance on the same storage (restart, second process)',
      async () => {
        const fixture = await open();
        try {
          if (!fixture.reopen)
            throw new Error(`${name}: give the fixture reopen(), or skip this test with a reason.`);
          await fixture.tokens.save('kept', HASH_A);
          const other = await fixture.reopen();
          expect(await other.find('kept')).toBe(HASH_A);
          await other.delete('kept');
          expect(await fixture.tokens.find('kept')).toBeNull();
        } finally {
          await fixture.dispose();
        }
      },
    );
    cases.done();
  });
}
