import { describe, expect, test } from 'vitest';
import { progressBar } from './progress.js';

describe('progressBar when not on a terminal', () => {
  test('one plain line per quarter, no time estimate', () => {
    const lines: string[] = [];
    const bar = progressBar('routing', 200, { write: (text) => lines.push(text), isTTY: false });
    for (let done = 1; done <= 200; done++) bar.update(done);
    bar.stop();
    expect(lines).toEqual([
      'routing: 25% (50/200)\n',
      'routing: 50% (100/200)\n',
      'routing: 75% (150/200)\n',
      'routing: 100% (200/200)\n',
    ]);
    expect(lines.join('')).not.toMatch(/ETA|\ds\b/);
  });

  test('small jobs draw nothing', () => {
    const lines: string[] = [];
    const bar = progressBar('routing', 10, { write: (text) => lines.push(text), isTTY: false });
    bar.update(10);
    expect(lines).toEqual([]);
  });
});
