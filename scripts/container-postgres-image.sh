#!/usr/bin/env bash
# Makes localhost/treeagent-test-pgvector:pg15, the local stand-in for docker.io/pgvector/pgvector:pg15
# (no registry image can be pulled on the test machines), for the compose check of
# scripts/container-test.sh:
#   - the Debian 12 base of scripts/container-base-images.sh (run that first) with postgresql-15 from
#     Debian's packages, installed in the build;
#   - pgvector: the files that scripts/setup-postgres.sh built on this machine from Debian's source
#     package for the same PostgreSQL 15 (vector.so, vector.control and its SQL scripts, headers), copied
#     in: compiling it again in the image would add a compiler and a minute for the same files;
#   - scripts/container-postgres/entrypoint.sh: POSTGRES_USER/PASSWORD/DB and
#     /docker-entrypoint-initdb.d as the official image does them, data in /var/lib/postgresql/data.
# An existing image is kept (TREEAGENT_REBUILD_PGVECTOR=1 rebuilds it). Run as root. Prints the image name.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container-podman.sh

IMAGE=localhost/treeagent-test-pgvector:pg15
DEBIAN=localhost/treeagent-test-debian:bookworm
LIB=/usr/lib/postgresql/15/lib
SHARE=/usr/share/postgresql/15/extension
INCLUDE=/usr/include/postgresql/15/server/extension/vector
CACHE=.cache/container
log() { echo "container-postgres-image: $*" >&2; }

if podman image exists "$IMAGE" && [ -z "${TREEAGENT_REBUILD_PGVECTOR:-}" ]; then
  echo "$IMAGE"
  exit 0
fi
if ! podman image exists "$DEBIAN"; then
  echo "container-postgres-image: $DEBIAN is missing; run scripts/container-base-images.sh first." >&2
  exit 1
fi
if [ ! -f "$LIB/vector.so" ] || [ ! -f "$SHARE/vector.control" ]; then
  echo "container-postgres-image: pgvector is not built on this machine ($LIB/vector.so, $SHARE/vector.control); run scripts/setup-postgres.sh as root first." >&2
  exit 1
fi
log "building $IMAGE (postgresql-15 from Debian, pgvector from this machine)"
mkdir -p "$CACHE"
stage="$(mktemp -d /tmp/treeagent-pgvector-image.XXXXXX)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/extension" "$stage/include"
cp "$LIB/vector.so" "$stage/lib/"
[ -d "$LIB/bitcode/vector" ] && mkdir -p "$stage/lib/bitcode" && cp -r "$LIB/bitcode/vector" "$LIB/bitcode/vector.index.bc" "$stage/lib/bitcode/" 2>/dev/null
cp "$SHARE"/vector.control "$SHARE"/vector--*.sql "$stage/extension/"
[ -d "$INCLUDE" ] && cp -r "$INCLUDE" "$stage/include/vector"
cp scripts/container-postgres/entrypoint.sh "$stage/entrypoint.sh"
cat >"$stage/Containerfile" <<CONTAINERFILE
FROM $DEBIAN
# No cluster of Debian's own (/var/lib/postgresql/15/main): the entry point makes one in the volume.
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \\
  && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \\
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
COPY lib/ $LIB/
COPY extension/ $SHARE/
COPY include/ /usr/include/postgresql/15/server/extension/
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin PGDATA=/var/lib/postgresql/data
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CONTAINERFILE
podman_build -t "$IMAGE" "$stage" >"$CACHE/build-pgvector.log" 2>&1 || {
  tail -n 30 "$CACHE/build-pgvector.log" >&2
  exit 1
}
echo "$IMAGE"
