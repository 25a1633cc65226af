import { describe, expect, it } from 'vitest';
import { createdBy } from './migration.js';

describe('createdBy (what "already migrated" checks)', () => {
  it('reads the tables, indexes (in the schema) and added columns of the statements', () => {
    expect(
      createdBy({
        schema: 'app',
        statements: [
          `
          CREATE TABLE IF NOT EXISTS "app"."t_tokens" (id text)`,
          `ALTER TABLE "app"."t_tokens" ADD COLUMN IF NOT EXISTS user_id text`,
          `CREATE INDEX IF NOT EXISTS "t_by_user"
             ON "app"."t_tokens" (user_id)`,
          `CREATE UNIQUE INDEX IF NOT EXISTS "t ""odd"" name" ON "app"."t_tokens" (id)`,
        ],
      }),
    ).toEqual({
      relations: ['"app"."t_tokens"', '"app"."t_by_user"', '"app"."t ""odd"" name"'],
      columns: [['"app"."t_tokens"', 'user_id']],
    });
  });

  it('refuses a statement whose result it could not check (it would be skipped once the rest exists)', () => {
    expect(() => createdBy({ schema: 'app', statements: ['CREATE TABLE "app"."t" (id text)'] })).toThrow(
      /must create a table, an index or a column: CREATE TABLE "app"."t"/,
    );
  });
});
