import { describe, expect } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { treeVersionOf } from '../versions/tree-version.js';
import type { EnvironmentChange, TreeVersion, VersionStore } from '../versions/version-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A version store under test, and how to open another instance on the same storage. */
export interface VersionStoreFixture {
  store: VersionStore;
  /** Another instance on the same storage (a restart); absent for memory. */
  reopen?: () => Promise<VersionStore>;
  dispose(): Promise<void>;
}

const at = new Date('2026-12-06T08:00:00.000Z');

function version(tree: string, nodes: number, parent: TreeVersion | null, second = 0): TreeVersion {
  const document = JSON.stringify({
    name: tree,
    nodes: Array.from({ length: nodes }, (_, id) => ({ id, name: `n${id}` })),
  });
  return treeVersionOf(
    {
      tree,
      document,
      callbacks: 'export const hello = () => "hi";',
      author: 'cli',
      message: `${nodes} nodes`,
      at: new Date(at.getTime() + second * 1000),
    },
    parent,
  );
}

function change(versionId: string, overrides: Partial<EnvironmentChange> = {}): EnvironmentChange {
  return {
    environment: 'production',
    versionId,
    action: 'publish',
    author: 'admin:ada',
    message: 'release',
    at,
    figures: { accuracy: 0.9, outOfScopeRecall: 0.75, nodeRecall: { billing: 0.8, 'café ☕': 1 } },
    ...overrides,
  };
}

/**
 * The behaviour every `VersionStore` shares: versions are immutable and deduplicated by content,
 * listed newest first per tree; environments point at one version, keep a history of publishes and
 * rollbacks with their figures, and a gate; a persistent store is seen by another instance.
 */
export function describeVersionStore(
  name: string,
  open: () => Promise<VersionStoreFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (VersionStore conformance)`, () => {
    const cases = conformanceCases(`version store conformance of ${name}`, options);

    cases.test('a version is stored once per content and read back field by field', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        expect(await store.addVersion(first)).toEqual({ version: first, created: true });
        const again = { ...version('shop', 2, null, 60), author: 'watch', message: 'same content' };
        expect(again.id).toBe(first.id);
        expect(await store.addVersion(again)).toEqual({ version: first, created: false });
        expect(await store.getVersion('shop', first.id)).toEqual(first);
        expect(await store.getVersion('shop', 'ffffffffffff')).toBeNull();
        expect(await store.getVersion('other', first.id)).toBeNull();
      } finally {
        await dispose();
      }
    });

    cases.test('versions are listed newest first, per tree, with their parent and diff', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        const second = version('shop', 3, first, 1);
        const third = version('shop', 1, second, 1);
        for (const each of [first, second, third]) await store.addVersion(each);
        await store.addVersion(version('other', 5, null));
        const listed = await store.listVersions('shop');
        expect(listed.map((each) => each.id)).toEqual([third.id, second.id, first.id]);
        expect(listed[1]).toEqual(second);
        expect(second.parentId).toBe(first.id);
        expect(second.diff).toBe('node 2 (n2): added');
        expect(third.diff).toBe('node 1 (n1): removed\nnode 2 (n2): removed');
        expect(await store.listVersions('nothing')).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.test('an environment points at the version published last and keeps its history', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        const second = version('shop', 3, first, 1);
        await store.addVersion(first);
        await store.addVersion(second);
        expect(await store.getEnvironment('shop', 'production')).toBeNull();
        await store.moveEnvironment('shop', change(first.id));
        await store.moveEnvironment('shop', change(second.id, { at: new Date(at.getTime() + 1000) }));
        await store.moveEnvironment(
          'shop',
          change(first.id, { action: 'rollback', figures: null, at: new Date(at.getTime() + 2000) }),
        );
        await store.moveEnvironment('shop', change(second.id, { environment: 'staging' }));
        expect(await store.getEnvironment('shop', 'production')).toEqual({
          tree: 'shop',
          name: 'production',
          versionId: first.id,
          gate: { minAccuracy: null, minOosRecall: null, maxRecallDrop: null },
          experiment: null,
        });
        const history = await store.history('shop', 'production');
        expect(history).toEqual([
          change(first.id),
          change(second.id, { at: new Date(at.getTime() + 1000) }),
          change(first.id, { action: 'rollback', figures: null, at: new Date(at.getTime() + 2000) }),
        ]);
        expect((await store.listEnvironments('shop')).map((each) => [each.name, each.versionId])).toEqual([
          ['production', first.id],
          ['staging', second.id],
        ]);
        expect(await store.history('other', 'production')).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.test('moving an environment to an unknown version is refused and changes nothing', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        await store.addVersion(first);
        await store.moveEnvironment('shop', change(first.id));
        const refused = await store.moveEnvironment('shop', change('0123456789ab')).catch((error) => error);
        expect(TreeAgentError.hasCode(refused, 'INVALID_INPUT')).toBe(true);
        expect((refused as Error).message).toContain('0123456789ab');
        expect((await store.getEnvironment('shop', 'production'))?.versionId).toBe(first.id);
        expect(await store.history('shop', 'production')).toHaveLength(1);
      } finally {
        await dispose();
      }
    });

    cases.test('a gate is set per environment, kept across publishes, and replaced', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        await store.addVersion(first);
        await store.setGate('shop', 'staging', { minAccuracy: 0.8, minOosRecall: null, maxRecallDrop: 0.05 });
        expect(await store.getEnvironment('shop', 'staging')).toEqual({
          tree: 'shop',
          name: 'staging',
          versionId: null,
          gate: { minAccuracy: 0.8, minOosRecall: null, maxRecallDrop: 0.05 },
          experiment: null,
        });
        await store.moveEnvironment('shop', change(first.id, { environment: 'staging' }));
        expect((await store.getEnvironment('shop', 'staging'))?.gate.minAccuracy).toBe(0.8);
        await store.setGate('shop', 'staging', { minAccuracy: null, minOosRecall: 0.5, maxRecallDrop: null });
        expect(await store.getEnvironment('shop', 'staging')).toEqual({
          tree: 'shop',
          name: 'staging',
          versionId: first.id,
          gate: { minAccuracy: null, minOosRecall: 0.5, maxRecallDrop: null },
          experiment: null,
        });
        expect(await store.getEnvironment('shop', 'production')).toBeNull();
      } finally {
        await dispose();
      }
    });

    cases.test('an experiment is started on an environment, kept across publishes, and ended', async () => {
      const { store, dispose } = await open();
      try {
        const first = version('shop', 2, null);
        const second = version('shop', 3, first, 1);
        await store.addVersion(first);
        await store.addVersion(second);
        await store.moveEnvironment('shop', change(first.id));
        const experiment = {
          name: 'shorter answers',
          variants: [
            { versionId: first.id, percent: 70 },
            { versionId: second.id, percent: 30 },
          ],
          startedAt: at,
        };
        await store.setExperiment('shop', 'production', experiment);
        expect((await store.getEnvironment('shop', 'production'))?.experiment).toEqual(experiment);
        await store.setGate('shop', 'production', {
          minAccuracy: 0.5,
          minOosRecall: null,
          maxRecallDrop: null,
        });
        await store.moveEnvironment('shop', change(second.id));
        expect(await store.getEnvironment('shop', 'production')).toEqual({
          tree: 'shop',
          name: 'production',
          versionId: second.id,
          gate: { minAccuracy: 0.5, minOosRecall: null, maxRecallDrop: null },
          experiment,
        });
        await store.setExperiment('shop', 'production', null);
        expect((await store.getEnvironment('shop', 'production'))?.experiment).toBeNull();
        await store.setExperiment('shop', 'staging', experiment);
        expect((await store.getEnvironment('shop', 'staging'))?.versionId).toBeNull();
      } finally {
        await dispose();
      }
    });

    cases.test('a session keeps the first version it is given', async () => {
      const { store, dispose } = await open();
      try {
        expect(await store.sessionVersion('shop', 's1')).toBeNull();
        expect(await store.pinSession('shop', 's1', 'aaaaaaaaaaaa')).toBe('aaaaaaaaaaaa');
        expect(await store.pinSession('shop', 's1', 'bbbbbbbbbbbb')).toBe('aaaaaaaaaaaa');
        expect(await store.pinSession('shop', 's2', 'bbbbbbbbbbbb')).toBe('bbbbbbbbbbbb');
        expect(await store.pinSession('other', 's1', 'cccccccccccc')).toBe('cccccccccccc');
        expect(await store.sessionVersion('shop', 's1')).toBe('aaaaaaaaaaaa');
        const both = await Promise.all([
          store.pinSession('shop', 'race', '111111111111'),
          store.pinSession('shop', 'race', '222222222222'),
        ]);
        expect(both[0]).toBe(both[1]);
      } finally {
        await dispose();
      }
    });

    cases.test("deleted sessions' versions are forgotten in every tree, the others kept", async () => {
      const { store, dispose } = await open();
      try {
        await store.pinSession('shop', 'gone', 'aaaaaaaaaaaa');
        await store.pinSession('other', 'gone', 'bbbbbbbbbbbb');
        await store.pinSession('shop', 'gone too', 'aaaaaaaaaaaa');
        await store.pinSession('shop', 'kept', 'aaaaaaaaaaaa');
        await store.forgetSessions(['gone', 'gone too', 'never pinned']);
        expect(await store.sessionVersion('shop', 'gone')).toBeNull();
        expect(await store.sessionVersion('other', 'gone')).toBeNull();
        expect(await store.sessionVersion('shop', 'gone too')).toBeNull();
        expect(await store.sessionVersion('shop', 'kept')).toBe('aaaaaaaaaaaa');
        await store.forgetSessions([]);
        // A forgotten session that writes again is a new session: it gets the version given now.
        expect(await store.pinSession('shop', 'gone', 'cccccccccccc')).toBe('cccccccccccc');
      } finally {
        await dispose();
      }
    });

    cases.test(
      'versions and environments outlive the store object: a reopened store reads them',
      async () => {
        const { store, reopen, dispose } = await open();
        try {
          const first = version('shop', 2, null);
          await store.addVersion(first);
          await store.moveEnvironment('shop', change(first.id));
          const again = await reopen!();
          expect(await again.listVersions('shop')).toEqual([first]);
          expect((await again.getEnvironment('shop', 'production'))?.versionId).toBe(first.id);
          expect(await again.history('shop', 'production')).toEqual([change(first.id)]);
          await store.pinSession('shop', 's1', first.id);
          expect(await (await reopen!()).sessionVersion('shop', 's1')).toBe(first.id);
        } finally {
          await dispose();
        }
      },
    );

    cases.done();
  });
}
