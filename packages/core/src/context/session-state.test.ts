import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { SessionState } from './session-state.js';

function stateError(run: () => unknown): TreeAgentError {
  try {
    run();
  } catch (error) {
    if (TreeAgentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a SESSION_STATE error');
}

describe('SessionState', () => {
  it('gets, sets, deletes and clears values', () => {
    const state = new SessionState();
    expect(state.get('a')).toBeUndefined();
    state.set('a', 1);
    state.set('b', { c: [1, 2] });
    expect(state.get<number>('a')).toBe(1);
    expect(state.has('b')).toBe(true);
    expect(state.keys()).toEqual(['a', 'b']);
    state.delete('a');
    expect(state.has('a')).toBe(false);
    state.set('b', undefined);
    expect(state.has('b')).toBe(false);
    state.set('x', null);
    expect(state.has('x')).toBe(true);
    state.clear();
    expect(state.keys()).toEqual([]);
    expect(state.serialize()).toEqual({});
  });

  it('returns the very value that was set until the interaction ends', () => {
    const state = new SessionState();
    const value = { n: 1 };
    state.set('v', value);
    expect(state.get('v')).toBe(value);
  });

  it('starts from a copy of the stored state', () => {
    const stored = { list: [1, 2], nested: { a: 'b' } };
    const state = new SessionState(stored);
    state.get<number[]>('list')!.push(3);
    expect(stored.list).toEqual([1, 2]);
    expect(state.serialize()).toEqual({ list: [1, 2, 3], nested: { a: 'b' } });
  });

  it('rejects an empty or non-string key', () => {
    const state = new SessionState();
    expect(stateError(() => state.set('', 1)).code).toBe('SESSION_STATE');
    expect(stateError(() => state.set(3 as unknown as string, 1)).code).toBe('SESSION_STATE');
  });

  describe('serialize()', () => {
    it('keeps plain JSON values as they are', () => {
      const state = new SessionState();
      const value = { s: 'x', n: 1.5, b: false, nil: null, list: [1, 'a', { deep: [true] }] };
      state.set('value', value);
      state.set('n', 0);
      expect(state.serialize()).toEqual({ value, n: 0 });
    });

    it('calls serialize() on values that have it, at any depth, and serialises what it returns', () => {
      const state = new SessionState();
      let calls = 0;
      const counter = {
        n: 2,
        serialize() {
          calls++;
          return { n: this.n, at: new Date('2024-05-06T07:08:09.000Z') };
        },
      };
      state.set('counter', counter);
      state.set('wrapped', { inner: [counter] });
      counter.n = 3;
      expect(state.serialize()).toEqual({
        counter: { n: 3, at: '2024-05-06T07:08:09.000Z' },
        wrapped: { inner: [{ n: 3, at: '2024-05-06T07:08:09.000Z' }] },
      });
      expect(calls).toBe(2);
    });

    it('supports class instances with a serialize() method', () => {
      class Cart {
        readonly items: string[] = [];
        add(item: string) {
          this.items.push(item);
          return this;
        }
        serialize() {
          return { items: this.items };
        }
      }
      const state = new SessionState();
      state.set('cart', new Cart().add('bike'));
      expect(state.serialize()).toEqual({ cart: { items: ['bike'] } });
    });

    it('turns dates into ISO strings and drops undefined object properties', () => {
      const state = new SessionState();
      state.set('when', new Date('2024-01-02T03:04:05.000Z'));
      state.set('obj', { keep: 1, drop: undefined });
      expect(state.serialize()).toEqual({ when: '2024-01-02T03:04:05.000Z', obj: { keep: 1 } });
    });

    it('accepts the same object twice when it is not a cycle', () => {
      const state = new SessionState();
      const shared = { a: 1 };
      state.set('twice', { x: shared, y: shared, list: [shared, shared] });
      expect(state.serialize()).toEqual({ twice: { x: { a: 1 }, y: { a: 1 }, list: [{ a: 1 }, { a: 1 }] } });
    });

    it('accepts objects without a prototype', () => {
      const state = new SessionState();
      const bare = Object.create(null) as Record<string, unknown>;
      bare.k = 'v';
      state.set('bare', bare);
      expect(state.serialize()).toEqual({ bare: { k: 'v' } });
    });

    it.each([
      ['a function', () => 1, 'bad'],
      ['NaN', Number.NaN, 'bad'],
      ['Infinity', Number.POSITIVE_INFINITY, 'bad'],
      ['a bigint', 1n, 'bad'],
      ['a symbol', Symbol('s'), 'bad'],
      ['a Map', new Map([['a', 1]]), 'bad'],
      ['a class instance without serialize()', new (class Point {})(), 'bad'],
      ['a nested function', { list: [{ fn: () => 1 }] }, 'bad.list[0].fn'],
      ['a bad value returned by serialize()', { serialize: () => ({ n: Number.NaN }) }, 'bad.serialize().n'],
    ])('rejects %s with a SESSION_STATE error naming the key', (_label, value, key) => {
      const state = new SessionState();
      state.set('good', 1);
      state.set('bad', value);
      const error = stateError(() => state.serialize());
      expect(error.code).toBe('SESSION_STATE');
      expect(error.details.key).toBe(key);
      expect(error.message).toContain(`"${key}"`);
    });

    it('rejects a cycle', () => {
      const state = new SessionState();
      const loop: Record<string, unknown> = { name: 'loop' };
      loop.self = loop;
      state.set('loop', loop);
      const error = stateError(() => state.serialize());
      expect(error.code).toBe('SESSION_STATE');
      expect(error.message).toContain('cycle');
    });

    it('does not change the live values', () => {
      const state = new SessionState();
      const when = new Date('2024-01-02T03:04:05.000Z');
      state.set('when', when);
      state.serialize();
      expect(state.get('when')).toBe(when);
    });
  });
});
