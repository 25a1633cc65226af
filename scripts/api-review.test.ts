import { describe, expect, it } from 'vitest';
import {
  COUNTS_END,
  COUNTS_START,
  countsTable,
  parseReview,
  reviewProblems,
  withCountsTable,
} from './api-review.js';

const FILE = 'packages/core/api/index.review.md';

describe('reviewProblems', () => {
  const review = parseReview(
    [
      '# Reviewed',
      '',
      '- `TreeAgent` — tree author: runs the tree',
      '- `defineTree` — tree author: builds it',
    ].join('\n'),
    FILE,
  );

  it('accepts an entry point whose every export has a line', () => {
    expect(reviewProblems('@treeagent/core', ['defineTree', 'TreeAgent'], review, FILE)).toEqual([]);
  });

  it('fails on an export added without a line, naming the name and the file to add it to', () => {
    const problems = reviewProblems('@treeagent/core', ['defineTree', 'TreeAgent', 'lintTree'], review, FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('`lintTree`');
    expect(problems[0]).toContain(
      `add the line "- \`lintTree\` — <audience>: <why it is public>" to ${FILE}`,
    );
  });

  it('fails on a line whose name is no longer exported', () => {
    const problems = reviewProblems('@treeagent/core', ['TreeAgent'], review, FILE);
    expect(problems).toEqual([
      `${FILE} lists \`defineTree\`, which @treeagent/core does not export: remove its line (or export it again).`,
    ]);
  });

  it('fails on a line it cannot read, a line without a reason, and a name listed twice', () => {
    const bad = parseReview(
      ['- TreeAgent: no backticks', '- `A` — ', '- `B` — x', '- `B` — y'].join('\n'),
      FILE,
    );
    const problems = reviewProblems('@treeagent/core', ['A', 'B'], bad, FILE);
    expect(problems).toEqual([
      expect.stringContaining(`${FILE}:1: "- TreeAgent: no backticks" is not a review line`),
      expect.stringContaining(`${FILE}:2: \`A\` has no reason`),
      expect.stringContaining(`${FILE}:4: \`B\` is listed twice`),
    ]);
  });
});

describe('the table of names per entry point', () => {
  const table = countsTable([
    { specifier: '@treeagent/core', names: 3, values: 1, types: 2 },
    { specifier: '@treeagent/core/filter', names: 2, values: 1, types: 1 },
  ]);

  it('lists each entry point with its counts', () => {
    expect(table).toContain('| `@treeagent/core` | 3 | 1 | 2 |');
    expect(table).toContain('| `@treeagent/core/filter` | 2 | 1 | 1 |');
  });

  it('replaces the table between its markers, so a stale one differs from the regenerated one', () => {
    const stale = `before\n${COUNTS_START}\n| old |\n${COUNTS_END}\nafter`;
    const fresh = withCountsTable(stale, table, 'docs/architecture.md');
    expect(fresh).not.toBe(stale);
    expect(fresh).toBe(`before\n${table}\nafter`);
    expect(withCountsTable(fresh, table, 'docs/architecture.md')).toBe(fresh);
  });

  it('names the file and the markers when the table has no place', () => {
    expect(() => withCountsTable('no markers', table, 'docs/architecture.md')).toThrow(
      /docs\/architecture\.md has no table of export counts: put the lines/,
    );
  });
});
