import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedMutex', () => {
  it('runs the tasks of one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      mutex.run('k', task('a', 20)),
      mutex.run('k', task('b', 1)),
      mutex.run('k', task('c', 10)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs tasks of different keys concurrently', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
    };
    await Promise.all([mutex.run('x', task('x', 20)), mutex.run('y', task('y', 5))]);
    expect(log).toEqual(['start x', 'start y', 'end y', 'end x']);
  });

  it('a task that throws rejects its own run and releases the key for the next task', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const failing = mutex.run('k', async () => {
      await sleep(5);
      log.push('failing');
      throw new Error('task failed');
    });
    const after = mutex.run('k', async () => {
      log.push('after');
      return 'ok';
    });
    await expect(failing).rejects.toThrow('task failed');
    await expect(after).resolves.toBe('ok');
    expect(log).toEqual(['failing', 'after']);
  });

  it('a task that throws synchronously inside an async function releases the key too', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(mutex.run('k', async () => 1)).resolves.toBe(1);
  });

  it('size counts the keys with tasks running or waiting, and drops keys when idle', async () => {
    const mutex = new KeyedMutex();
    expect(mutex.size).toBe(0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a1 = mutex.run('a', () => gate);
    const a2 = mutex.run('a', async () => {});
    const b = mutex.run('b', () => gate);
    expect(mutex.size).toBe(2);
    release();
    await Promise.all([a1, a2, b]);
    expect(mutex.size).toBe(0);
  });

  it('a task queued while another waits starts only after both earlier ones', async () => {
    const mutex = new KeyedMutex();
    const order: number[] = [];
    const runs: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      runs.push(
        mutex.run('k', async () => {
          await sleep(5 - i);
          order.push(i);
        }),
      );
      await sleep(0);
    }
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});
