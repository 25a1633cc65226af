import { describe, expect, it } from 'vitest';
import { AcknowledgedTurns } from './acknowledged-turns.js';

describe('AcknowledgedTurns', () => {
  it('runs the tasks of one conversation in order, others alongside, and settles after all', async () => {
    const turns = new AcknowledgedTurns();
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    turns.run(
      'a',
      async () => {
        await held;
        log.push('a1');
      },
      () => {},
    );
    turns.run(
      'a',
      async () => {
        log.push('a2');
      },
      () => {},
    );
    turns.run(
      'b',
      async () => {
        log.push('b1');
      },
      () => {},
    );
    await expect.poll(() => log).toEqual(['b1']);
    release();
    await turns.settle();
    expect(log).toEqual(['b1', 'a1', 'a2']);
    expect(turns.pending).toBe(0);
  });

  it('a failed task goes to its error handler and the next one of the conversation still runs', async () => {
    const turns = new AcknowledgedTurns();
    const errors: unknown[] = [];
    const log: string[] = [];
    turns.run(
      'a',
      async () => {
        throw new Error('the platform is down');
      },
      (error) => errors.push(error),
    );
    turns.run(
      'a',
      async () => {
        log.push('a2');
      },
      (error) => errors.push(error),
    );
    await turns.settle();
    expect(errors).toHaveLength(1);
    expect(log).toEqual(['a2']);
  });
});
