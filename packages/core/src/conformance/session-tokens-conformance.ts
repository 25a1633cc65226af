import { describe, expect } from 'vitest';
import type { SessionTokens } from '../handoff/session-tokens.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

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
    cases.test(
      'info, touch and claimExpired: expired sessions are claimed once, even by two instances at once',
      async () => {
        const fixture = await open();
        try {
          const { tokens } = fixture;
          if (!tokens.info || !tokens.touch || !tokens.claimExpired)
            throw new Error(`${name}: implement info, touch and claimExpired (session expiry).`);
          const started = new Date();
          for (let i = 0; i < 30; i++) await tokens.save(`old${i}`, HASH_A);
          const created = (await tokens.info('old0'))!;
          expect(created.tokenHash).toBe(HASH_A);
          expect(Math.abs(created.createdAt.getTime() - started.getTime())).toBeLessThan(5000);
          expect(created.lastUsedAt.getTime()).toBe(created.createdAt.getTime());
          const later = new Date(created.lastUsedAt.getTime() + 60_000);
          await tokens.touch('old0', later);
          expect((await tokens.info('old0'))!.lastUsedAt.getTime()).toBe(later.getTime());
          // old0 was used later: with an idle cutoff between, it is not expired; the others are.
          const idleBefore = new Date(created.lastUsedAt.getTime() + 30_000);
          const never = new Date(0);
          const other = fixture.reopen ? await fixture.reopen() : tokens;
          const [mine, theirs] = await Promise.all([
            tokens.claimExpired({ idleBefore, createdBefore: never }, 100),
            other.claimExpired!({ idleBefore, createdBefore: never }, 100),
          ]);
          const all = [...mine, ...theirs].sort();
          expect(new Set(all).size).toBe(all.length);
          expect(all).toEqual(Array.from({ length: 29 }, (_, i) => `old${i + 1}`).sort());
          expect(await tokens.find('old1')).toBeNull();
          expect(await tokens.find('old0')).toBe(HASH_A);
          // The absolute cutoff expires it however recently it was used.
          expect(
            await tokens.claimExpired(
              { idleBefore: never, createdBefore: new Date(created.createdAt.getTime() + 1) },
              10,
            ),
          ).toEqual(['old0']);
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.test(
      'users: sessions saved for a user are listed oldest first, and deleteUser forgets them all and only them',
      async () => {
        const fixture = await open();
        try {
          const { tokens } = fixture;
          if (!tokens.userSessions || !tokens.deleteUser)
            throw new Error(`${name}: implement userSessions and deleteUser (personal data requests).`);
          await tokens.save('u1-a', HASH_A, 'user-1');
          await tokens.save('nobody', HASH_A);
          await tokens.save('u2-a', HASH_A, 'user-2@example.com');
          await tokens.save('u1-b', HASH_B, 'user-1');
          expect(await tokens.userSessions('user-1')).toEqual(['u1-a', 'u1-b']);
          expect(await tokens.userSessions('user-3')).toEqual([]);
          expect((await tokens.info!('u1-b'))?.userId).toBe('user-1');
          expect((await tokens.info!('nobody'))?.userId ?? null).toBeNull();
          const other = fixture.reopen ? await fixture.reopen() : tokens;
          expect(await other.userSessions!('user-2@example.com')).toEqual(['u2-a']);
          expect((await other.deleteUser!('user-1')).sort()).toEqual(['u1-a', 'u1-b']);
          expect(await tokens.find('u1-a')).toBeNull();
          expect(await tokens.find('u1-b')).toBeNull();
          expect(await tokens.find('nobody')).toBe(HASH_A);
          expect(await tokens.find('u2-a')).toBe(HASH_A);
          expect(await tokens.userSessions('user-1')).toEqual([]);
          expect(await tokens.deleteUser('user-1')).toEqual([]);
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.done();
  });
}
