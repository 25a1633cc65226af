/**
 * The row a SQLite driver reads back after `values` were written to `columns` (times and JSON as
 * text): for the tests of the row mappings the SQLite and PostgreSQL stores share.
 */
export function rowOfValues<T>(columns: readonly string[], values: readonly unknown[]): T {
  return Object.fromEntries(columns.map((column, index) => [column, values[index]])) as T;
}
