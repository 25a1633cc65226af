import { describe, expect, test } from 'vitest';
import { publishedFigures, rollbackTarget } from './rollback-target.js';
import type { EnvironmentChange } from './version-store.js';

const at = new Date('2026-12-06T08:00:00.000Z');
const publish = (versionId: string, accuracy = 0.9): EnvironmentChange => ({
  environment: 'production',
  versionId,
  action: 'publish',
  author: 'cli',
  message: '',
  at,
  figures: { accuracy, outOfScopeRecall: null, nodeRecall: {} },
});
const rollback = (versionId: string): EnvironmentChange => ({
  ...publish(versionId),
  action: 'rollback',
  figures: null,
});

describe('rollbackTarget', () => {
  test('returns to the version published before the current one, and further back on a second rollback', () => {
    expect(rollbackTarget([publish('a'), publish('b'), publish('c')])).toBe('b');
    expect(rollbackTarget([publish('a'), publish('b'), publish('c'), rollback('b')])).toBe('a');
  });

  test('has nothing to return to after one publish, or once every publish is rolled back', () => {
    expect(rollbackTarget([])).toBeNull();
    expect(rollbackTarget([publish('a')])).toBeNull();
    expect(rollbackTarget([publish('a'), publish('b'), rollback('a')])).toBeNull();
  });

  test('the figures in force are those of the publish a rollback returned to', () => {
    expect(publishedFigures([publish('a', 0.7), publish('b', 0.9), rollback('a')])?.accuracy).toBe(0.7);
    expect(publishedFigures([])).toBeNull();
  });

  test('a double publish is undone by one rollback, and one recorded as a no-op leaves its version in force', () => {
    expect(rollbackTarget([publish('a'), publish('b'), publish('b')])).toBe('a');
    expect(rollbackTarget([publish('a'), publish('b'), publish('b'), rollback('a')])).toBeNull();
    // A rollback once recorded to the version it left (the double publish's no-op): b still serves.
    expect(rollbackTarget([publish('a'), publish('b'), publish('b'), rollback('b')])).toBe('a');
  });

  test('after a promote (no figures) the recall gate compares with the last publish in force that has them', () => {
    const promote = { ...publish('c'), figures: null };
    expect(publishedFigures([publish('a', 0.7), publish('b', 0.9), promote])?.accuracy).toBe(0.9);
    expect(publishedFigures([publish('a', 0.7), publish('b', 0.9), rollback('a'), promote])?.accuracy).toBe(
      0.7,
    );
  });
});
