import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TurnFact } from '@treeagent/core/analytics';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { testAgent, testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

const TURNS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'treeagent-report-loop-'));
const file = join(dir, 'treeagent.db');

/** Synthetic turns over 60 days (enough for a report that takes SQLite a while). */
beforeAll(async () => {
  const store = new SqliteSessionStore(file);
  const statuses = ['answered', 'answered', 'answered', 'no-match', 'fallback', 'handed-off'] as const;
  const end = Date.now();
  for (let offset = 0; offset < TURNS; offset += 5000) {
    const batch: TurnFact[] = [];
    for (let i = offset; i < offset + 5000; i++) {
      const status = statuses[i % statuses.length]!;
      batch.push({
        sessionId: `s${Math.floor(i / 5)}`,
        turn: (i % 5) + 1,
        at: new Date(end - (i % 60) * 86_400_000 - i).toISOString(),
        treeVersion: i % 2 ? 'v1' : 'v2',
        status,
        errorCode: null,
        nodeId: status === 'no-match' ? null : 3 + (i % 40),
        agentId: 2,
        bestSimilarity: 0.5,
        minMargin: (i % 97) / 200,
        lowMarginNodeId: 2,
        lowMarginChildId: 3 + (i % 5),
        lowMarginRunnerUpId: 9 + (i % 5),
        failCounter: 0,
        latencyMs: (i * 7919) % 400,
        inputTokens: null,
        outputTokens: null,
        message: `question ${i % 300}`,
        decisions: [],
      });
    }
    await store.recordFacts(batch);
  }
  await store.close();
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite report runs off the event loop', () => {
  it('the server answers other requests while a report over many turns runs', async () => {
    const sessionStore = new SqliteSessionStore(file);
    try {
      const { app } = testApp({
        agent: testAgent({ sessionStore }),
        operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      });
      const headers = { 'X-Operator-Token': await loginOperator(app, 'anna') };
      let reportDone = false;
      const started = performance.now();
      const report = Promise.resolve(
        app.request('/api/v1/analytics/report?from=2000-01-01', { headers }),
      ).then((response) => {
        reportDone = true;
        return response;
      });
      // While the report runs: the event loop keeps turning and other requests are answered.
      const answered: number[] = [];
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      while (!reportDone) {
        const health = await app.request('/health');
        expect(health.status).toBe(200);
        if (!reportDone) answered.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      clearInterval(timer);
      const elapsed = performance.now() - started;
      const response = await report;
      expect(response.status).toBe(200);
      expect(((await response.json()) as { totals: { turns: number } }).totals.turns).toBe(TURNS);
      // The report took a while, and requests were answered all along it (on the store's own
      // connection one at most slips in between two of the report's queries).
      const seen = `report ${elapsed.toFixed(0)} ms, ${answered.length} answers, ${ticks} timer ticks`;
      expect(elapsed, seen).toBeGreaterThan(100);
      expect(answered.length, seen).toBeGreaterThan(3);
      expect(ticks, seen).toBeGreaterThan(3);
    } finally {
      await sessionStore.close();
    }
  }, 120_000);
});
