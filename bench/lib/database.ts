/** The PostgreSQL test database of scripts/setup-postgres.sh: the benchmarks' default. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:54329/treeagent_test';
