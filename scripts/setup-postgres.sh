#!/usr/bin/env bash
# Prepares the PostgreSQL + pgvector server that the @treeagent/postgres integration tests use,
# on Debian 12, as root. Idempotent, and fast when everything is already there:
#   1. installs postgresql-15 (and, only when pgvector is missing, postgresql-server-dev-15 and the
#      build tools) from Debian's packages;
#   2. builds pgvector for PostgreSQL 15 from Debian trixie's SOURCE package, through a private apt
#      configuration (the system's sources and package lists are left untouched), unless
#      /usr/share/postgresql/15/extension/vector.control already exists;
#   3. starts a throwaway cluster owned by the postgres user on 127.0.0.1:$PORT (trust
#      authentication, durability switched off: it is for tests only), unless it is running;
#   4. creates the database treeagent_test with the vector extension.
# Progress goes to stderr; the last line on stdout is the connection URL, so
#   export TREEAGENT_TEST_DATABASE_URL="$(bash scripts/setup-postgres.sh)"
# works. Overrides: TREEAGENT_PG_PORT (54329), TREEAGENT_PG_DATA (/var/lib/postgresql/treeagent-15),
# TREEAGENT_DEBIAN_MIRROR (default: the mirror of this machine's own Debian sources).
set -euo pipefail

PG_MAJOR=15
PORT="${TREEAGENT_PG_PORT:-54329}"
DATA="${TREEAGENT_PG_DATA:-/var/lib/postgresql/treeagent-${PG_MAJOR}}"
DB=treeagent_test
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_CONFIG="${PG_BIN}/pg_config"
VECTOR_CONTROL="/usr/share/postgresql/${PG_MAJOR}/extension/vector.control"
SERVER_HEADER="/usr/include/postgresql/${PG_MAJOR}/server/postgres.h"
URL="postgres://postgres@127.0.0.1:${PORT}/${DB}"

log() { echo "setup-postgres: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  echo "setup-postgres: run me as root (I install Debian packages and start a cluster as the postgres user)." >&2
  exit 1
fi

# --- 1. Debian packages -------------------------------------------------------------------------
missing=()
[ -x "${PG_BIN}/postgres" ] || missing+=("postgresql-${PG_MAJOR}")
if [ ! -f "$VECTOR_CONTROL" ]; then
  [ -f "$SERVER_HEADER" ] || missing+=("postgresql-server-dev-${PG_MAJOR}")
  command -v make >/dev/null && command -v gcc >/dev/null || missing+=(build-essential)
  command -v dpkg-source >/dev/null || missing+=(dpkg-dev)
  command -v xz >/dev/null || missing+=(xz-utils)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt (unattended upgrades) rather than fail.
  apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# --- 2. pgvector from Debian trixie's source package ----------------------------------------------
if [ ! -f "$VECTOR_CONTROL" ]; then
  work="$(mktemp -d /tmp/treeagent-pgvector.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  # The Debian mirror this machine already uses for its own release (or TREEAGENT_DEBIAN_MIRROR).
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
  mirror="${TREEAGENT_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
    awk -v release="$codename" '$2 == release { print $1; exit }')}"
  if [ -z "$mirror" ]; then
    echo "setup-postgres: found no Debian mirror for ${codename} in the apt sources; set TREEAGENT_DEBIAN_MIRROR" >&2
    exit 1
  fi
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror} trixie main" >"$work/sources.list"
  # A private apt: its own sources, package lists and cache; nothing of the system's is changed.
  apt_private=(
    -o "Dir::Etc::SourceList=$work/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$work/lists"
    -o "Dir::Cache=$work/cache"
    -o "APT::Sandbox::User=root"
  )
  log "fetching the pgvector source package from Debian trixie"
  apt-get "${apt_private[@]}" update -qq >&2
  (cd "$work/src" && apt-get "${apt_private[@]}" source -qq --only-source pgvector >&2)
  src_dir="$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)"
  if [ -z "$src_dir" ]; then
    echo "setup-postgres: apt-get source pgvector unpacked nothing in $work/src" >&2
    exit 1
  fi
  log "building $(basename "$src_dir") for PostgreSQL ${PG_MAJOR}"
  # OPTFLAGS="" drops -march=native, so the build runs on any x86-64 machine.
  make -s -C "$src_dir" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >&2
  make -s -C "$src_dir" install PG_CONFIG="$PG_CONFIG" >&2
  rm -rf "$work"
  trap - EXIT
fi

# --- 3. A throwaway cluster on 127.0.0.1:$PORT -----------------------------------------------------
as_postgres() { runuser -u postgres -- "$@"; }
psql_q() { "${PG_BIN}/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres "$@"; }

if ! "${PG_BIN}/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres; then
  if [ ! -f "$DATA/PG_VERSION" ]; then
    log "creating a test cluster in $DATA"
    mkdir -p "$DATA"
    chown postgres:postgres "$DATA"
    chmod 700 "$DATA"
    as_postgres "${PG_BIN}/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$DATA/postgresql.conf" <<EOF

# --- treeagent test cluster (scripts/setup-postgres.sh) ---
listen_addresses = '127.0.0.1'
port = ${PORT}
unix_socket_directories = ''
max_connections = 300
# Throwaway data: durability is not needed, speed is.
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  fi
  log "starting the test cluster on 127.0.0.1:${PORT}"
  # setsid: the server outlives the shell (and the process group) that started it. A few tries:
  # after a crash, the old server's processes may hold the data directory for a moment.
  for attempt in 1 2 3 4 5 6; do
    if as_postgres setsid "${PG_BIN}/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start >/dev/null 2>&1; then
      break
    fi
    if [ "$attempt" -eq 6 ]; then
      echo "setup-postgres: the test cluster in $DATA did not start; the end of $DATA/server.log:" >&2
      tail -n 30 "$DATA/server.log" >&2 || true
      exit 1
    fi
    sleep "$attempt"
  done
fi

# --- 4. The test database and the vector extension ------------------------------------------------
if [ "$(psql_q -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${DB}'")" != "1" ]; then
  log "creating database ${DB}"
  psql_q -d postgres -c "CREATE DATABASE ${DB}"
fi
psql_q -d "$DB" -c 'CREATE EXTENSION IF NOT EXISTS vector' 2>&1 | grep -v 'already exists' >&2 || true
if [ "$(psql_q -d "$DB" -tAc "SELECT 1 FROM pg_extension WHERE extname = 'vector'")" != "1" ]; then
  echo "setup-postgres: the vector extension could not be created in ${DB}" >&2
  exit 1
fi

echo "$URL"
