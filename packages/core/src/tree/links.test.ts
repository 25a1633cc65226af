import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { createLinks } from './links.js';

function thrown(read: () => unknown): TreeAgentError {
  try {
    read();
  } catch (error) {
    if (TreeAgentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('createLinks', () => {
  it('returns the node id of a known link', () => {
    const links = createLinks(5, { confirm: 12, back: 3 });
    expect(links.confirm).toBe(12);
    expect(links.back).toBe(3);
  });

  it('throws UNKNOWN_LINK naming the node and listing its links', () => {
    const links = createLinks(5, { confirm: 12, back: 3 });
    const error = thrown(() => links.cancel);
    expect(error.code).toBe('UNKNOWN_LINK');
    expect(error.nodeId).toBe(5);
    expect(error.message).toContain('Node 5 has no link named "cancel".');
    expect(error.message).toContain('Its links are: confirm, back.');
    expect(error.details).toEqual({ link: 'cancel', known: ['confirm', 'back'] });
  });

  it('says when the node has no links at all', () => {
    const error = thrown(() => createLinks(7, {}).confirm);
    expect(error.code).toBe('UNKNOWN_LINK');
    expect(error.message).toContain('Node 7 has no link named "confirm". It has no links.');
  });

  it('does not treat inherited properties as links', () => {
    const links = createLinks(5, { confirm: 12 });
    expect(thrown(() => links.hasOwnProperty).code).toBe('UNKNOWN_LINK');
    expect(thrown(() => links.constructor).code).toBe('UNKNOWN_LINK');
  });

  it('can be inspected without throwing: keys, in, spread and JSON', () => {
    const links = createLinks(5, { confirm: 12, back: 3 });
    expect(Object.keys(links)).toEqual(['confirm', 'back']);
    expect('confirm' in links).toBe(true);
    expect('cancel' in links).toBe(false);
    expect(Object.hasOwn(links, 'back')).toBe(true);
    expect({ ...links }).toEqual({ confirm: 12, back: 3 });
    expect(JSON.stringify(links)).toBe('{"confirm":12,"back":3}');
  });

  it('is read-only and independent of the object it was made from', () => {
    const source = { confirm: 12 };
    const links = createLinks(5, source);
    source.confirm = 99;
    expect(links.confirm).toBe(12);
    expect(() => {
      (links as Record<string, number>).confirm = 1;
    }).toThrow(TypeError);
    expect(links.confirm).toBe(12);
  });
});
