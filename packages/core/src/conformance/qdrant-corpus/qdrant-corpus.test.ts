import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../filter/evaluate-filter.js';
import { validateFilter } from '../../filter/validate-filter.js';
import type { Filter, PointId } from '../../protocol/filter.js';
import { compareIds } from '../../vector/in-memory-vector-store.js';
import { corpusOutcome } from '../qdrant-corpus-conformance.js';
import { CORPUS_CASES } from './cases.js';
import { CORPUS_COLLECTIONS } from './collections.js';

/**
 * The shared evaluator alone against Qdrant's corpus: the points a case's filter selects must be
 * Qdrant's answer (scroll and count: exactly, in id order; query: the answer must be among them, and
 * be all of them when Qdrant returned fewer than the limit).
 */
describe('compileFilter on the Qdrant corpus', () => {
  it.each(CORPUS_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const outcome = corpusOutcome(c);
    const filter = (c.request.filter ?? null) as Filter | null;
    if ('rejected' in outcome) {
      expect(() => validateFilter(filter)).toThrow(expect.objectContaining({ code: 'FILTER' }));
      return;
    }
    const points = CORPUS_COLLECTIONS.get(c.collection)!.points;
    const accepts = compileFilter(filter);
    const visible = c.request.endpoint === 'query' ? points.filter((p) => p.vector !== null) : points;
    const selected: PointId[] = visible
      .filter((p) => accepts({ id: p.id, payload: p.payload ?? {} }))
      .map((p) => p.id)
      .sort(compareIds);
    const limit = c.request.limit ?? 10;
    if (c.request.endpoint === 'scroll') {
      const from = c.request.offset;
      const page = selected.filter((id) => from === undefined || compareIds(id, from) >= 0);
      expect(page.slice(0, limit)).toEqual(outcome.ids);
      if (outcome.next !== undefined) expect(page[limit]).toBe(outcome.next);
    } else if (c.request.endpoint === 'count') expect(selected).toEqual(outcome.ids);
    else {
      expect(selected).toEqual(expect.arrayContaining([...outcome.ids]));
      if (outcome.ids.length < limit && c.request.scoreThreshold === undefined) {
        expect(selected).toEqual([...outcome.ids].sort(compareIds));
      }
    }
  });

  it('covers the Qdrant test files the corpus names', () => {
    const files = new Set(CORPUS_CASES.map((c) => c.source.file));
    expect([...files].sort()).toEqual(
      [
        'lib/segment/src/payload_storage/query_checker.rs',
        'test_basic_retrieve_api.py',
        'test_count.py',
        'test_filter.py',
        'test_filter_is_empty.py',
        'test_filter_min_should.py',
        'test_filter_slice.py',
        'test_filter_values_count.py',
        'test_filter_values_count_missing_field.py',
        'test_fts.py',
        'test_geo_filter.py',
        'test_match_any_empty.py',
        'test_match_except_empty.py',
        'test_nested_payload_indexing.py',
        'test_nested_payload_query.py',
        'test_nesting_nested_payload_query.py',
        'test_payload_indexing.py',
        'test_prefix_match.py',
        'test_score_threshold.py',
        'test_uuid_ops.py',
      ].sort(),
    );
    expect(new Set(CORPUS_CASES.map((c) => c.name)).size).toBe(CORPUS_CASES.length);
  });
});
