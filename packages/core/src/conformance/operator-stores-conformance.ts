import { describe, expect } from 'vitest';
import type { AuditLog } from '../handoff/audit-log.js';
import type { OperatorSessions } from '../handoff/operator-sessions.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** An operator-login store and an audit log under test, and how to reopen them (a restart, a second process). */
export interface OperatorStoresFixture {
  sessions: OperatorSessions;
  auditLog: AuditLog;
  /** Other instances on the same storage; absent for memory. */
  reopen?: () => Promise<{ sessions: OperatorSessions; auditLog: AuditLog }>;
  dispose(): Promise<void>;
}

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/**
 * The behaviour every `OperatorSessions` and `AuditLog` share: logins are saved, found, deleted and
 * expired; audit entries are appended with increasing ids and listed newest first, filtered and
 * paged; a persistent store is seen by another instance.
 */
export function describeOperatorStores(
  name: string,
  open: () => Promise<OperatorStoresFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (OperatorSessions and AuditLog conformance)`, () => {
    const cases = conformanceCases(`operator stores conformance of ${name}`, options);

    cases.test('a login is found by its token hash until it is deleted or expires', async () => {
      const { sessions, dispose } = await open();
      try {
        const now = new Date('2026-12-01T10:00:00.000Z');
        const later = new Date('2026-12-01T22:00:00.000Z');
        await sessions.save(HASH_A, { operatorId: 'anna', createdAt: now, expiresAt: later });
        await sessions.save(HASH_B, { operatorId: 'bruno', createdAt: now, expiresAt: now });
        expect(await sessions.find(HASH_A)).toEqual({ operatorId: 'anna', createdAt: now, expiresAt: later });
        expect(await sessions.find('c'.repeat(64))).toBeNull();
        expect(await sessions.deleteExpired(new Date(now.getTime() + 1))).toBe(1);
        expect(await sessions.find(HASH_B)).toBeNull();
        expect(await sessions.find(HASH_A)).not.toBeNull();
        await sessions.delete(HASH_A);
        await sessions.delete('never-saved');
        expect(await sessions.find(HASH_A)).toBeNull();
      } finally {
        await dispose();
      }
    });

    cases.test("a single sign-on login keeps the provider's identity with it", async () => {
      const { sessions, dispose } = await open();
      try {
        const now = new Date('2026-12-01T10:00:00.000Z');
        const later = new Date('2026-12-01T22:00:00.000Z');
        const identity = {
          name: 'Anna Rossi',
          role: 'admin' as const,
          teams: ['billing'],
          idToken: 'eyJ.x.y',
        };
        await sessions.save(HASH_A, { operatorId: 'anna@sso', createdAt: now, expiresAt: later, identity });
        await sessions.save(HASH_B, { operatorId: 'bruno', createdAt: now, expiresAt: later });
        expect(await sessions.find(HASH_A)).toEqual({
          operatorId: 'anna@sso',
          createdAt: now,
          expiresAt: later,
          identity,
        });
        // A password login has none (the operators file names it).
        expect((await sessions.find(HASH_B))?.identity).toBeUndefined();
      } finally {
        await dispose();
      }
    });

    cases.test("deleteOperator deletes every login of that operator and no other's", async () => {
      const { sessions, dispose } = await open();
      try {
        if (!sessions.deleteOperator) throw new Error(`${name} has no deleteOperator`);
        const now = new Date('2026-12-01T10:00:00.000Z');
        const later = new Date('2026-12-01T22:00:00.000Z');
        await sessions.save(HASH_A, { operatorId: 'anna', createdAt: now, expiresAt: later });
        await sessions.save(HASH_B, { operatorId: 'bruno', createdAt: now, expiresAt: later });
        await sessions.save('c'.repeat(64), { operatorId: 'bruno', createdAt: now, expiresAt: later });
        expect(await sessions.deleteOperator('bruno')).toBe(2);
        expect(await sessions.find(HASH_B)).toBeNull();
        expect(await sessions.find('c'.repeat(64))).toBeNull();
        expect(await sessions.find(HASH_A)).not.toBeNull();
        expect(await sessions.deleteOperator('nobody')).toBe(0);
      } finally {
        await dispose();
      }
    });

    cases.test(
      'audit entries get increasing ids and are listed newest first, filtered and paged',
      async () => {
        const { auditLog, dispose } = await open();
        try {
          const at = new Date('2026-12-01T10:00:00.000Z');
          const appended = [];
          for (let i = 0; i < 5; i++) {
            appended.push(
              await auditLog.append({
                at: new Date(at.getTime() + i * 1000),
                actorId: i % 2 ? 'bruno' : 'anna',
                actorRole: 'operator',
                action: i === 4 ? 'handoff.close' : 'handoff.reply',
                sessionId: i < 3 ? 's1' : null,
                detail: { index: i, kind: 'text', flag: true, none: null },
              }),
            );
          }
          const ids = appended.map((entry) => entry.id);
          expect([...ids].sort((a, b) => a - b)).toEqual(ids);
          expect(new Set(ids).size).toBe(5);
          const all = await auditLog.list();
          expect(all.map((entry) => entry.id)).toEqual([...ids].reverse());
          expect(all[0]).toEqual({
            id: ids[4],
            at: new Date(at.getTime() + 4000),
            actorId: 'anna',
            actorRole: 'operator',
            action: 'handoff.close',
            sessionId: null,
            detail: { index: 4, kind: 'text', flag: true, none: null },
          });
          expect((await auditLog.list({ sessionId: 's1' })).map((entry) => entry.detail.index)).toEqual([
            2, 1, 0,
          ]);
          expect((await auditLog.list({ actorId: 'bruno' })).map((entry) => entry.detail.index)).toEqual([
            3, 1,
          ]);
          expect(
            (await auditLog.list({ action: 'handoff.close' })).map((entry) => entry.detail.index),
          ).toEqual([4]);
          const page = await auditLog.list({ limit: 2 });
          expect(page.map((entry) => entry.detail.index)).toEqual([4, 3]);
          const next = await auditLog.list({ limit: 2, beforeId: page[1]!.id });
          expect(next.map((entry) => entry.detail.index)).toEqual([2, 1]);
        } finally {
          await dispose();
        }
      },
    );

    cases.test(
      'a persistent store is seen by another instance on the same storage (restart, second process)',
      async () => {
        const fixture = await open();
        try {
          if (!fixture.reopen)
            throw new Error(`${name}: give the fixture reopen(), or skip this test with a reason.`);
          const now = new Date('2026-12-01T10:00:00.000Z');
          await fixture.sessions.save(HASH_A, { operatorId: 'anna', createdAt: now, expiresAt: now });
          await fixture.auditLog.append({
            at: now,
            actorId: 'anna',
            actorRole: 'admin',
            action: 'operator.login',
            sessionId: null,
            detail: {},
          });
          const sso = { name: 'Carla', role: 'operator' as const, teams: ['support'] };
          await fixture.sessions.save(HASH_B, {
            operatorId: 'carla@sso',
            createdAt: now,
            expiresAt: now,
            identity: sso,
          });
          const other = await fixture.reopen();
          expect((await other.sessions.find(HASH_A))?.operatorId).toBe('anna');
          expect((await other.sessions.find(HASH_B))?.identity).toEqual(sso);
          expect((await other.auditLog.list()).map((entry) => entry.action)).toEqual(['operator.login']);
          await other.sessions.delete(HASH_A);
          expect(await fixture.sessions.find(HASH_A)).toBeNull();
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.done();
  });
}
