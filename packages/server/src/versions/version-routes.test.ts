import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemorySatisfactionRatings,
  InMemoryVersionStore,
  type TreeVersion,
  treeVersionOf,
} from '@treeagent/core/adapter';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testAgent, testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import type { PublishGateRequest } from './version-routes-options.js';

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});
const cleanups = cleanupsAfterEach();

const doc = (text: string) => JSON.stringify({ name: 'shop', nodes: [{ id: 1, name: 'greet', text }] });

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-versions-'));
  const sessionStore = new SqliteSessionStore(join(dir, 'sessions.db'));
  cleanups.push(async () => {
    await sessionStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const agent = testAgent({ sessionStore });
  const store = new InMemoryVersionStore();
  const add = async (text: string, parent: TreeVersion | null) =>
    (
      await store.addVersion(
        treeVersionOf(
          { tree: 'shop', document: doc(text), callbacks: null, author: 'cli', message: text },
          parent,
        ),
      )
    ).version;
  const good = await add('hello', null);
  const broken = await add('broken', good);
  const better = await add('hello again', broken);
  const asked: PublishGateRequest[] = [];
  // How long the gate takes (ms): a real gate runs for seconds.
  const timing = { gateMs: 0 };
  // A stand-in for the CLI's gate (mock, labelled): refuses a version whose document says "broken".
  const gate = async (request: PublishGateRequest) => {
    asked.push(request);
    if (timing.gateMs) await new Promise((resolve) => setTimeout(resolve, timing.gateMs));
    return request.version.document.includes('broken')
      ? { failures: ['conversation test "greeting" (conversations/greet.yaml) failed'], figures: null }
      : { failures: [], figures: { accuracy: 1, outOfScopeRecall: null, nodeRecall: { greet: 1 } } };
  };
  const satisfaction = new InMemorySatisfactionRatings();
  const unloadable = new Set<string>();
  const { app } = testApp({
    agent,
    handoff: { satisfaction },
    operators: { directory: operatorDirectory(accounts) },
    versions: {
      store,
      tree: 'shop',
      gate,
      treeVersionOf: async (version) => {
        if (unloadable.has(version.id)) throw new Error('its callbacks module changed since it was saved');
        return version.id === good.id ? agent.tree.contentHash : 'not-served';
      },
      // A stand-in for the CLI's check (mock, labelled): the versions in `unloadable` do not load.
      unloadable: async (version) =>
        unloadable.has(version.id) ? 'its callbacks module changed since it was saved' : null,
    },
  });
  const admin = { 'X-Operator-Token': await loginOperator(app, 'anna') };
  const call = (path: string, body?: unknown, headers: Record<string, string> = admin) =>
    app.request(`/api/v1/versions${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { app, agent, store, satisfaction, good, broken, better, asked, admin, call, timing, unloadable };
}

/** An experiment "town" on production, half and half between two versions. */
function startExperiment(store: InMemoryVersionStore, control: TreeVersion, treatment: TreeVersion) {
  return store.setExperiment('shop', 'production', {
    name: 'town',
    variants: [
      { versionId: control.id, percent: 50 },
      { versionId: treatment.id, percent: 50 },
    ],
    startedAt: new Date(),
  });
}

describe('versions routes', () => {
  it('are for admins only: no login is 401, an operator is 403', async () => {
    const { app, call } = await setup();
    expect((await call('', undefined, {})).status).toBe(401);
    const operator = { 'X-Operator-Token': await loginOperator(app, 'bruno') };
    expect((await call('', undefined, operator)).status).toBe(403);
    expect(
      (await call('/publish', { environment: 'staging', version: 'x', message: 'm' }, operator)).status,
    ).toBe(403);
    expect((await call('')).status).toBe(200);
  });

  it('list the versions newest first and diff two of them', async () => {
    const { call, good, better } = await setup();
    const list = (await (await call('')).json()) as { versions: { id: string }[] };
    expect(list.versions.map((v) => v.id)).toEqual([better.id, expect.any(String), good.id]);
    const diff = (await (await call(`/diff?from=${good.id}&to=${better.id}`)).json()) as { lines: string[] };
    expect(diff.lines).toEqual(['node 1 (greet): text changed']);
    const unknown = await call(`/diff?from=${good.id}&to=nope`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /no version "nope"/,
    );
  });

  it('publish through the gate: a refused one lists its failures and moves nothing; rollback returns', async () => {
    const { call, good, broken, better, asked } = await setup();
    const publish = async (version: string, message = 'why') =>
      (await call('/publish', { environment: 'production', version, message })).json() as Promise<{
        published: boolean;
        failures: string[];
      }>;
    expect(await publish(good.id)).toMatchObject({ published: true, failures: [] });
    const refused = await publish(broken.id);
    expect(refused).toMatchObject({ published: false });
    expect(refused.failures).toEqual(['conversation test "greeting" (conversations/greet.yaml) failed']);
    // The gate compared with the figures of the publish in force.
    expect(asked.at(-1)?.previous).toEqual({ accuracy: 1, outOfScopeRecall: null, nodeRecall: { greet: 1 } });
    expect(await publish(better.id)).toMatchObject({ published: true });
    const envs = async () =>
      (
        (await (await call('/environments')).json()) as {
          environments: { name: string; versionId: string; history: { action: string; author: string }[] }[];
        }
      ).environments.find((env) => env.name === 'production')!;
    expect((await envs()).versionId).toBe(better.id);
    expect((await envs()).history[0]).toMatchObject({ action: 'publish', author: 'admin:anna' });
    const back = await call('/rollback', { environment: 'production' });
    expect(await back.json()).toMatchObject({ rolledBack: true, from: better.id, versionId: good.id });
    expect((await envs()).versionId).toBe(good.id);
    expect((await call('/rollback', { environment: 'production' })).status).toBe(409);
  });

  it('refuse bad input naming the fix: an unknown environment, no message', async () => {
    const { call, good } = await setup();
    const unknown = await call('/publish', { environment: 'prod', version: good.id, message: 'm' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toMatch(/use one of draft, staging, production/);
    const silent = await call('/publish', { environment: 'staging', version: good.id, message: ' ' });
    expect(silent.status).toBe(400);
    expect(JSON.stringify(await silent.json())).toMatch(/Say why you publish/);
  });

  it("give an experiment's figures per variant and the test's decision", async () => {
    const { app, agent, call, store, satisfaction, good, better, unloadable } = await setup();
    expect((await call('/experiments/production')).status).toBe(404);
    // CSAT ratings of sessions the good version ran, and one of a version outside the experiment.
    const rating = (sessionId: string, value: 1 | 2 | 3 | 4 | 5, treeVersion: string) =>
      satisfaction.add({
        sessionId,
        rating: value,
        comment: null,
        operatorId: 'bruno',
        team: 'support',
        treeVersion,
        at: new Date(),
      });
    // A conversation on the good version before the experiment started: not the experiment's.
    const before = await createSession(app);
    await postMessage(app, before, { message: 'hello' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await startExperiment(store, good, better);
    // The experiment's: conversations begun on the good version since the start.
    const inIt: string[] = [];
    for (let index = 0; index < 2; index++) {
      const session = await createSession(app);
      await postMessage(app, session, { message: 'hello' });
      // A second turn: still one conversation.
      await postMessage(app, session, { message: 'hello' });
      inIt.push(session.sessionId);
    }
    await rating(inIt[0]!, 4, agent.tree.contentHash);
    await rating(inIt[1]!, 5, agent.tree.contentHash);
    await rating(before.sessionId, 1, agent.tree.contentHash);
    await rating('elsewhere', 1, 'another-tree-version');
    const body = (await (await call('/experiments/production')).json()) as {
      variants: { versionId: string; conversations: number; csat: number | null; csatRatings: number }[];
      decision: { status: string; method: string; sampleSize: number };
    };
    expect(body.variants.map((v) => [v.versionId, v.conversations, v.csat, v.csatRatings])).toEqual([
      [good.id, 2, 4.5, 2],
      [better.id, 0, null, 0],
    ]);
    expect(body.decision).toMatchObject({ status: 'continue', sampleSize: 1565 });
    expect(body.decision.method).toMatch(/two-proportion z-test/);

    // A variant that no longer loads (its module changed during the experiment): said, with the way out.
    unloadable.add(better.id);
    const broken = await call('/experiments/production');
    expect(broken.status).toBe(409);
    const error = ((await broken.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('VARIANT_NOT_LOADABLE');
    expect(error.message).toContain(
      `The experiment "town" on production has a variant that cannot be loaded any more, ${better.id} (its callbacks module changed since it was saved)`,
    );
    expect(error.message).toContain('--stop');
  });

  it('a publish during an experiment is refused naming it; a rollback wins, ending it in the history', async () => {
    const { call, store, good, better, asked } = await setup();
    await call('/publish', { environment: 'production', version: good.id, message: 'first' });
    await call('/publish', { environment: 'production', version: better.id, message: 'second' });
    await startExperiment(store, good, better);
    const gated = asked.length;
    const refused = await call('/publish', { environment: 'production', version: good.id, message: 'm' });
    expect(refused.status).toBe(409);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('EXPERIMENT_RUNNING');
    expect(error.message).toMatch(/production runs the experiment "town"/);
    expect(error.message).toMatch(/--stop/);
    expect(asked).toHaveLength(gated);
    expect((await store.getEnvironment('shop', 'production'))?.versionId).toBe(better.id);

    const back = await call('/rollback', { environment: 'production' });
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({
      rolledBack: true,
      from: better.id,
      versionId: good.id,
      endedExperiment: 'town',
    });
    expect(await store.getEnvironment('shop', 'production')).toMatchObject({
      versionId: good.id,
      experiment: null,
    });
    expect((await store.history('shop', 'production')).at(-1)?.message).toBe(
      `rollback from ${better.id} (ended the experiment "town")`,
    );
  });

  it('a rollback to a version that cannot be loaded any more is refused, naming it, and moves nothing', async () => {
    const { call, store, good, better, unloadable } = await setup();
    await call('/publish', { environment: 'production', version: good.id, message: 'first' });
    await call('/publish', { environment: 'production', version: better.id, message: 'second' });
    unloadable.add(good.id);
    const refused = await call('/rollback', { environment: 'production' });
    expect(refused.status).toBe(409);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('VERSION_NOT_LOADABLE');
    expect(error.message).toContain(
      `production cannot roll back to version ${good.id}: it cannot be loaded any more (its callbacks module changed since it was saved). Nothing changed.`,
    );
    expect((await store.getEnvironment('shop', 'production'))?.versionId).toBe(better.id);
    expect(await store.history('shop', 'production')).toHaveLength(2);
  });

  it('two identical publishes at once publish once, and the next rollback returns to the version before', async () => {
    const { call, store, good, better, timing } = await setup();
    await call('/publish', { environment: 'production', version: good.id, message: 'first' });
    timing.gateMs = 50;
    const both = await Promise.all(
      [1, 2].map(async () =>
        (await call('/publish', { environment: 'production', version: better.id, message: 'again' })).json(),
      ),
    );
    expect(both).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ published: true }),
        expect.objectContaining({ alreadyServed: true }),
      ]),
    );
    expect((await store.history('shop', 'production')).map((change) => change.versionId)).toEqual([
      good.id,
      better.id,
    ]);
    const back = await call('/rollback', { environment: 'production' });
    expect(await back.json()).toMatchObject({ rolledBack: true, from: better.id, versionId: good.id });
    expect((await store.getEnvironment('shop', 'production'))?.versionId).toBe(good.id);
  });

  it('promote the winner in one action: published, the experiment ended; bad input refused, operators 403', async () => {
    const { app, call, store, good, better, broken } = await setup();
    const promote = (body: unknown, headers?: Record<string, string>) =>
      call('/experiments/production/promote', body, headers);
    // No experiment runs: refused, naming it.
    const none = await promote({ version: better.id, message: 'won' });
    expect(none.status).toBe(400);
    expect(JSON.stringify(await none.json())).toMatch(
      /not a variant of an experiment running on production \(none runs\)/,
    );
    await startExperiment(store, good, better);
    const operator = { 'X-Operator-Token': await loginOperator(app, 'bruno') };
    expect((await promote({ version: better.id, message: 'won' }, operator)).status).toBe(403);
    expect((await promote({ version: better.id, message: 'won' }, {})).status).toBe(401);
    const outsider = await promote({ version: broken.id, message: 'won' });
    expect(outsider.status).toBe(400);
    expect(JSON.stringify(await outsider.json())).toContain(`its variants: ${good.id}, ${better.id}`);
    const silent = await promote({ version: better.id, message: '  ' });
    expect(silent.status).toBe(400);
    expect(JSON.stringify(await silent.json())).toMatch(/Say why you promote it/);
    expect((await call('/experiments/nowhere/promote', { version: better.id, message: 'won' })).status).toBe(
      400,
    );
    // Nothing moved by the refusals.
    expect((await store.getEnvironment('shop', 'production'))?.experiment?.name).toBe('town');

    const promoted = await promote({ version: better.id, message: 'won the experiment' });
    expect(promoted.status, await promoted.clone().text()).toBe(200);
    expect(await promoted.json()).toEqual({
      promoted: true,
      environment: 'production',
      versionId: better.id,
      experiment: 'town',
    });
    const production = await store.getEnvironment('shop', 'production');
    expect(production).toMatchObject({ versionId: better.id, experiment: null });
    expect((await store.history('shop', 'production')).at(-1)).toMatchObject({
      action: 'publish',
      author: 'admin:anna',
      message: 'won the experiment',
    });
    expect((await call('/experiments/production')).status).toBe(404);
  });

  it('without operator logins: the developer\'s in debug mode (author "dev"), closed otherwise', async () => {
    const store = new InMemoryVersionStore();
    const version = (
      await store.addVersion(
        treeVersionOf(
          { tree: 'shop', document: doc('hello'), callbacks: null, author: 'cli', message: 'm' },
          null,
        ),
      )
    ).version;
    const versions = {
      store,
      tree: 'shop',
      // A stand-in for the CLI's gate (mock, labelled): lets every version through.
      gate: async () => ({ failures: [], figures: null }),
      treeVersionOf: async () => 'not-served',
    };
    const closed = testApp({ debug: false, versions }).app;
    expect((await closed.request('/api/v1/versions')).status).not.toBe(200);
    const { app } = testApp({ debug: true, versions });
    expect((await app.request('/api/v1/versions')).status).toBe(200);
    const published = await app.request('/api/v1/versions/publish', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ environment: 'staging', version: version.id, message: 'try it' }),
    });
    expect(published.status, await published.clone().text()).toBe(200);
    expect((await store.history('shop', 'staging')).map((change) => change.author)).toEqual(['dev']);
  });
});
