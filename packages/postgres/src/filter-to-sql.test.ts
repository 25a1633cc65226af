import { TreeAgentError } from '@treeagent/core';
import type { Filter } from '@treeagent/core/filter';
import { describe, expect, it } from 'vitest';
import { filterToSql, normalizeId } from './filter-to-sql.js';

const options = { payload: 'payload', id: { text: 'id', kind: 'id_kind' } };

describe('filterToSql (no database)', () => {
  it('is TRUE for no filter and for an empty one', () => {
    expect(filterToSql(null, options).sql).toBe('TRUE');
    expect(filterToSql(undefined, options).sql).toBe('TRUE');
    expect(filterToSql({}, options).sql).toBe('TRUE');
  });

  it('binds every key and value as a parameter, continuing after the parameters already there', () => {
    const hostile = `'; DROP TABLE users; --`;
    const filter: Filter = {
      must: [
        { key: `"${hostile}".x`, match: { value: hostile } },
        { key: 'a', match: { text: hostile } },
        { key: 'd', range: { gte: '2024-01-01T00:00:00Z' } },
        { has_id: [hostile, 3] },
      ],
    };
    const params: unknown[] = ['collection'];
    const { sql } = filterToSql(filter, { ...options, params });
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain('users');
    expect(sql).not.toContain('$1::');
    expect(params[0]).toBe('collection');
    expect(params).toContain(hostile);
    expect(params).toContain(JSON.stringify(hostile));
    // Equal values of one type share one placeholder.
    expect(params.filter((p) => p === 'x')).toHaveLength(1);
  });

  it('rejects malformed filters with FILTER, as the evaluator does', () => {
    const error = (() => {
      try {
        filterToSql({ must: [{ key: 'a', match: { value: 1.5 } }] } as Filter, options);
      } catch (e) {
        return e;
      }
    })();
    expect(TreeAgentError.hasCode(error, 'FILTER')).toBe(true);
  });

  it('never matches has_id without id columns (inside nested, for instance)', () => {
    expect(filterToSql({ must: [{ has_id: [1] }] }, { payload: 'p' }).sql).toContain('FALSE');
  });

  it('normalises UUIDs as Qdrant does', () => {
    expect(normalizeId('{0B9C6D3E8F2A4C1B9D7E5A4B3C2D1E0F}')).toBe('0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f');
    expect(normalizeId('not-a-uuid')).toBe('not-a-uuid');
  });
});
