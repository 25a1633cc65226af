-- Run once by the PostgreSQL image on an empty data directory (docker-entrypoint-initdb.d):
-- the vector extension, as scripts/setup-postgres.sh creates it for the tests. Tree Agent creates
-- its own tables at start.
CREATE EXTENSION IF NOT EXISTS vector;
