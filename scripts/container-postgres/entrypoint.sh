#!/bin/bash
# The entry point of the local PostgreSQL 15 + pgvector test image (scripts/container-postgres-image.sh),
# doing what deploy/compose.yaml relies on from the official pgvector/pgvector:pg15 image:
# POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB make the role and the database on an empty
# /var/lib/postgresql/data, the *.sql files of /docker-entrypoint-initdb.d run once in that database,
# clients on the network log in with the password (scram-sha-256), and the server runs in the foreground.
set -euo pipefail
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
BIN=/usr/lib/postgresql/15/bin
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown postgres:postgres "$PGDATA" /run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres entrypoint: POSTGRES_PASSWORD is empty; set it (deploy/.env) to create the database." >&2
    exit 1
  fi
  "$BIN/initdb" -D "$PGDATA" -U "$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  # The first start listens on its socket only, for the init scripts.
  "$BIN/pg_ctl" -D "$PGDATA" -o "-c listen_addresses='' -k /run/postgresql" -w start >/dev/null
  psql=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h /run/postgresql -U "$user")
  if [ "$db" != postgres ]; then
    "${psql[@]}" -d postgres -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
  for file in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$file" ] || continue
    echo "postgres entrypoint: running $file" >&2
    "${psql[@]}" -d "$db" -f "$file"
  done
  "$BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$BIN/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/run/postgresql
