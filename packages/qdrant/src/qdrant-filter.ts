import type { ChunkId } from '@treeagent/core/adapter';
import type { Condition, Conditions, Filter } from '@treeagent/core/filter';
import { validateFilter } from '@treeagent/core/filter';
import { toQdrantPointId } from './point-id.js';

/** Qdrant's REST filter JSON: Tree Agent filters are already in this shape, ids aside. */
export type QdrantFilter = Record<string, unknown>;

/**
 * Turns a Tree Agent filter and a list of excluded chunk ids into the filter sent to Qdrant:
 * the filter is validated, passed unchanged except for `has_id` values (mapped with
 * {@link toQdrantPointId}) and repeated `any` / `except` / `has_id` values (sent once: Qdrant's schema
 * declares them sets), and the exclusions are appended to `must_not` as one `has_id` condition.
 * Returns `undefined` when nothing constrains the request.
 */
export function toQdrantFilter(
  filter: Filter | null | undefined,
  exclude: readonly ChunkId[] | undefined,
): QdrantFilter | undefined {
  const validated = filter ? mapFilter(validateFilter(filter)) : undefined;
  const mapped = validated && Object.keys(validated).length > 0 ? validated : undefined;
  if (!exclude?.length) return mapped;
  const excluded = { has_id: unique(exclude.map(toQdrantPointId)) };
  if (!mapped) return { must_not: [excluded] };
  const mustNot = mapped.must_not;
  const existing = mustNot == null ? [] : Array.isArray(mustNot) ? mustNot : [mustNot];
  return { ...mapped, must_not: [...existing, excluded] };
}

function mapFilter(filter: Filter): QdrantFilter {
  const out: QdrantFilter = {};
  for (const key of ['must', 'should', 'must_not'] as const) {
    const clause = filter[key];
    if (clause === undefined) continue;
    out[key] = clause === null ? null : mapConditions(clause);
  }
  if (filter.min_should !== undefined) {
    out.min_should =
      filter.min_should === null
        ? null
        : { ...filter.min_should, conditions: filter.min_should.conditions.map(mapCondition) };
  }
  return out;
}

function mapConditions(conditions: Conditions): unknown {
  return Array.isArray(conditions)
    ? (conditions as readonly Condition[]).map(mapCondition)
    : mapCondition(conditions as Condition);
}

function mapCondition(condition: Condition): unknown {
  // Qdrant's schema declares `any` and `except` as sets (uniqueItems): send each value once.
  if ('key' in condition && condition.match != null) {
    const { match } = condition;
    if (match.any !== undefined)
      return { ...condition, match: { ...match, any: unique<string | number>(match.any) } };
    if (match.except !== undefined)
      return { ...condition, match: { ...match, except: unique<string | number>(match.except) } };
  }
  if ('has_id' in condition) return { ...condition, has_id: unique(condition.has_id.map(toQdrantPointId)) };
  if ('nested' in condition) {
    return { nested: { ...condition.nested, filter: mapFilter(condition.nested.filter) } };
  }
  if ('must' in condition || 'should' in condition || 'must_not' in condition || 'min_should' in condition) {
    return mapFilter(condition as Filter);
  }
  return condition;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
