import { describe, expect, test } from 'vitest';
import { conformanceCases } from './skip-list.js';

describe('conformanceCases', () => {
  // The declared test is skipped too: a test of the suite the skip list does name.
  const cases = conformanceCases('Demo suite', {
    skip: [{ reason: 'not here', tests: ['a renamed test', 'a declared test'] }],
  });
  cases.test('a declared test', async () => {});

  test('a skip list naming a test the suite lacks is an error that lists the tests', () => {
    expect(() => cases.done()).toThrow(
      'The Demo suite skip list names "a renamed test", which the suite does not have. Its tests are: "a declared test".',
    );
  });

  test('a skip without a reason is refused', () => {
    expect(() =>
      conformanceCases('Demo suite', { skip: [{ reason: ' ', tests: ['a declared test'] }] }),
    ).toThrow(/without a reason/);
  });
});
