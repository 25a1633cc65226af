import { describe, expect, it } from 'vitest';
import { rowOfValues } from '../test-support/row-of-values.js';
import {
  ENVIRONMENT_CHANGE_COLUMNS,
  type EnvironmentChangeRow,
  environmentChangeOfRow,
  environmentChangeValues,
  TREE_VERSION_COLUMNS,
  type TreeVersionRow,
  treeEnvironmentOfRow,
  treeVersionOfRow,
  treeVersionValues,
} from './version-rows.js';
import type { EnvironmentChange, TreeVersion } from './version-store.js';

const version: TreeVersion = {
  tree: 'shop',
  id: 'v2',
  hash: 'h2',
  documentHash: 'd2',
  callbacksHash: null,
  document: '{"nodes":[]}',
  createdAt: new Date('2026-12-06T10:00:00.000Z'),
  author: 'anna',
  message: 'second',
  parentId: 'v1',
  diff: '+ node 3',
};

const change: EnvironmentChange = {
  environment: 'production',
  versionId: 'v2',
  action: 'publish',
  author: 'anna',
  message: 'go',
  at: new Date('2026-12-06T11:00:00.000Z'),
  figures: { accuracy: 0.9, outOfScopeRecall: null, nodeRecall: { Orders: 0.95 } },
};

describe('version store rows', () => {
  it('a version written as values reads back the same, its time as text or as a Date', () => {
    const row = rowOfValues<TreeVersionRow>(TREE_VERSION_COLUMNS, treeVersionValues(version));
    expect(treeVersionOfRow(row)).toEqual(version);
    expect(treeVersionOfRow({ ...row, created_at: version.createdAt })).toEqual(version);
  });

  it('an environment change reads back the same from text (SQLite) and from Date and jsonb (PostgreSQL)', () => {
    const row = rowOfValues<EnvironmentChangeRow>(
      ENVIRONMENT_CHANGE_COLUMNS,
      environmentChangeValues('shop', change),
    );
    expect(row).toMatchObject({ tree: 'shop', figures: JSON.stringify(change.figures) });
    expect(environmentChangeOfRow(row)).toEqual(change);
    expect(environmentChangeOfRow({ ...row, at: change.at, figures: change.figures })).toEqual(change);
    const noFigures = { ...change, figures: null };
    expect(
      environmentChangeOfRow(
        rowOfValues(ENVIRONMENT_CHANGE_COLUMNS, environmentChangeValues('shop', noFigures)),
      ),
    ).toEqual(noFigures);
  });

  it('an environment reads its gate and experiment from JSON text or parsed jsonb, the start as a Date', () => {
    const gate = { minAccuracy: 0.8, minOosRecall: null, maxRecallDrop: 0.1 };
    const experiment = {
      name: 'spring',
      variants: [
        { versionId: 'v1', percent: 50 },
        { versionId: 'v2', percent: 50 },
      ],
      startedAt: '2026-12-06T12:00:00.000Z',
    };
    const expected = {
      tree: 'shop',
      name: 'production',
      versionId: 'v2',
      gate,
      experiment: { ...experiment, startedAt: new Date(experiment.startedAt) },
    };
    const base = { tree: 'shop', name: 'production', version_id: 'v2' };
    expect(
      treeEnvironmentOfRow({ ...base, gate: JSON.stringify(gate), experiment: JSON.stringify(experiment) }),
    ).toEqual(expected);
    expect(treeEnvironmentOfRow({ ...base, gate, experiment })).toEqual(expected);
    expect(treeEnvironmentOfRow({ ...base, gate, experiment: null })).toEqual({
      ...expected,
      experiment: null,
    });
  });
});
