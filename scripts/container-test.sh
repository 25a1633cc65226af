#!/usr/bin/env bash
# The container image of deploy/Containerfile, built and run for real with podman (Debian's), on
# Debian 12 bases made locally (scripts/container-base-images.sh: no registry can be pulled from):
#   1. builds the image from the packed packages (deploy/make-context.sh) and states its size;
#   2. runs it with a read-only root file system, a volume for the data directory, the tree mounted
#      read-only and the API keys as a mounted secret file: /ready, 401 without a key, a conversation;
#      the process runs as uid 10001 and cannot write outside its volume; the image's health check passes;
#   3. stops it (SIGTERM: exit code 0), starts a new container on the same volume, configured from the
#      environment this time (TREEAGENT_API_KEYS): the conversation is there and goes on;
#   4. runs the compose setup (deploy/compose.yaml): PostgreSQL 15 + pgvector (a local image,
#      scripts/container-postgres-image.sh) and the app, configured from compose.yaml, on one podman
#      network; the app starts once the database is healthy; a conversation, a restart of the app, the
#      conversation found again on PostgreSQL;
#   5. runs it on PostgreSQL (TREEAGENT_DATABASE_URL, the test server of scripts/setup-postgres.sh):
#      a session written by one container is continued by a second one.
# Installs what it needs from Debian's packages (podman, runc, debootstrap, CNI's dnsname) when missing. Prints
# "N passed, N failed" and exits non-zero on a failure. Run as root from the repository; SKIP_BUILD=1
# when the packages are already built (scripts/test-all.sh builds them first).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
passed=0
failed=0
log() { echo "container-test: $*" >&2; }
check() {
  local what="$1"
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok - $what"
  else
    failed=$((failed + 1))
    echo "not ok - $what"
  fi
}
finish() {
  echo "container-test: $((SECONDS - started)) s"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

if [ "$(id -u)" -ne 0 ]; then
  echo "container-test: run me as root (podman as root, Debian packages)." >&2
  exit 1
fi
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v curl >/dev/null || missing+=(curl)
# The DNS of podman networks (CNI): the compose check's app reaches the database as "db".
[ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
source scripts/container-podman.sh

# --- 1. the image -------------------------------------------------------------------------------
mapfile -t bases < <(bash scripts/container-base-images.sh)
[ "${#bases[@]}" -eq 2 ] || { log "the base images could not be made"; failed=1; finish; }
SKIP_BUILD="${SKIP_BUILD:-}" bash deploy/make-context.sh .cache/container/context || { failed=1; finish; }
IMAGE=localhost/treeagent:test
log "building $IMAGE from deploy/Containerfile"
build_started=$SECONDS
if ! podman_build -f deploy/Containerfile --build-arg "RUNTIME_IMAGE=${bases[0]}" \
  --build-arg "BUILD_IMAGE=${bases[1]}" -t "$IMAGE" .cache/container/context >.cache/container/build.log 2>&1; then
  tail -n 30 .cache/container/build.log >&2
  check "the image builds from deploy/Containerfile" false
  finish
fi
check "the image builds from deploy/Containerfile ($((SECONDS - build_started)) s)" true
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' "${bases[0]}")
echo "image size: $((size / 1000000)) MB ($((base_size / 1000000)) MB of it the Debian + Node.js base)"
config() { podman image inspect --format "$1" "$IMAGE"; }
check "the image runs as user 10001, not root" test "$(config '{{.Config.User}}')" = "10001:10001"
check "the entry point is treeagent serve" test "$(config '{{json .Config.Entrypoint}}')" = '["treeagent","serve"]'
check "the data directory is a volume" bash -c "podman image inspect --format '{{json .Config.Volumes}}' $IMAGE | grep -q /var/lib/treeagent"
check "the image has a health check on /ready" bash -c "podman image inspect --format '{{json .Config.Healthcheck}}' $IMAGE | grep -q /ready"

podman_probe "$IMAGE" || { check "a container starts on this machine" false; finish; }

# --- 2. a container on its volume ---------------------------------------------------------------
work="$(mktemp -d /tmp/treeagent-container-test.XXXXXX)"
suffix="$$"
VOLUME="treeagent-test-data-$suffix"
containers=()
cleanup() {
  for name in "${containers[@]}"; do podman rm -f -t 0 "$name" >/dev/null 2>&1; done
  podman volume rm -f "$VOLUME" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
API_KEY="sk-container-test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
mkdir -p "$work/tree"
cat >"$work/tree/tree.json" <<'EOF'
{ "format": "treeagent-tree", "version": 1, "name": "shop", "nodes": [
  { "id": 1, "type": "root" },
  { "id": 2, "parent": 1, "type": "agent", "name": "assistant", "isPrimary": true },
  { "id": 3, "parent": 2, "type": "emit", "name": "shipping", "chunks": ["shipping"],
    "emit": { "message": { "type": "static", "content": "Shipping is 7.90." } } } ] }
EOF
printf '# the front end\n%s\n' "$API_KEY" >"$work/api-keys"
chown 10001:10001 "$work/api-keys"
chmod 600 "$work/api-keys"
podman volume create "$VOLUME" >/dev/null
PORT=$((20000 + RANDOM % 20000))
URL="http://127.0.0.1:$PORT"

# start <name> <podman run options…> -- <serve arguments…>
start() {
  local name="$1"
  shift
  local options=()
  while [ "$1" != "--" ]; do options+=("$1"); shift; done
  shift
  containers+=("$name")
  podman_run -d --name "$name" --read-only --tmpfs /tmp --health-interval disable \
    -v "$work/tree:/opt/treeagent/tree:ro" "${options[@]}" "$IMAGE" "$@" >/dev/null
}
wait_ready() {
  local url="$1"
  for _ in $(seq 1 120); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/ready")" = 200 ] && return 0
    sleep 0.5
  done
  return 1
}
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(eval('('+s+')'+process.argv[1])))" "$1"; }
new_session() {
  curl -s -X POST -H "authorization: Bearer $API_KEY" "$1/api/v1/sessions"
}
say() { # <url> <session> <token> <message>: the answer's text and the turn
  curl -s -X POST -H "authorization: Bearer $API_KEY" -H 'content-type: application/json' \
    -H "x-session-token: $3" -d "{\"message\":\"$4\"}" "$1/api/v1/sessions/$2/messages"
}
history_length() {
  curl -s -H "authorization: Bearer $API_KEY" -H "x-session-token: $3" "$1/api/v1/sessions/$2/history" | json '.history.length'
}

start "treeagent-test-a-$suffix" -p "127.0.0.1:$PORT:3000" -v "$VOLUME:/var/lib/treeagent" \
  -v "$work/api-keys:/run/secrets/api-keys:ro" -- \
  /opt/treeagent/tree/tree.json --host 0.0.0.0 --port 3000 --data /var/lib/treeagent \
  --api-key-file /run/secrets/api-keys
check "the container becomes ready (GET /ready 200)" wait_ready "$URL"
check "without the API key of the mounted secret file: 401" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/api/v1/sessions")" = 401
session_json="$(new_session "$URL")"
SESSION="$(echo "$session_json" | json '.sessionId')"
TOKEN="$(echo "$session_json" | json '.token')"
check "a session is created with the key" test -n "$SESSION"
answer="$(say "$URL" "$SESSION" "$TOKEN" shipping | json '.messages[0].content')"
check "the tree answers (\"$answer\")" test "$answer" = "Shipping is 7.90."
check "the server runs as uid 10001" test "$(podman exec "treeagent-test-a-$suffix" node -p 'process.getuid()')" = 10001
check "the root file system is read-only to it" \
  bash -c "! podman exec treeagent-test-a-$suffix node -e \"require('fs').writeFileSync('/opt/treeagent/x', '')\" 2>/dev/null"
check "the SQLite file is in the volume" \
  podman exec "treeagent-test-a-$suffix" node -e "require('fs').statSync('/var/lib/treeagent/treeagent.db')"
check "the image's health check passes" podman healthcheck run "treeagent-test-a-$suffix"
podman stop -t 20 "treeagent-test-a-$suffix" >/dev/null
check "SIGTERM stops it with exit code 0" \
  test "$(podman inspect --format '{{.State.ExitCode}}' "treeagent-test-a-$suffix")" = 0

# --- 3. a new container on the same volume, configured from the environment ------------------------
start "treeagent-test-b-$suffix" -p "127.0.0.1:$PORT:3000" -v "$VOLUME:/var/lib/treeagent" \
  -e "TREEAGENT_API_KEYS=$API_KEY" --
check "a new container on the same volume becomes ready" wait_ready "$URL"
check "the conversation is still there (2 history entries)" test "$(history_length "$URL" "$SESSION" "$TOKEN")" = 2
turn="$(say "$URL" "$SESSION" "$TOKEN" shipping | json '.turn')"
check "and goes on at turn 2 (got $turn)" test "$turn" = 2
podman stop -t 20 "treeagent-test-b-$suffix" >/dev/null

# --- 4. the compose setup: the app and PostgreSQL + pgvector, two containers on one network --------
# podman-compose is not used: Debian 12's (1.0.3) does not wait for depends_on's service_healthy and
# cannot pass this machine's runtime flags (podman_probe). The two containers are started from
# deploy/compose.yaml itself (scripts/compose-podman-args.mjs: its environment, volumes, read-only root,
# tmpfs, health checks and service names), on a podman network whose DNS resolves "db" as compose's
# does, the app only once the database's health check passes (depends_on: service_healthy). The
# official pgvector image cannot be pulled here: scripts/container-postgres-image.sh makes a local one.
compose_started=$SECONDS
PG_IMAGE="$(bash scripts/container-postgres-image.sh)" || PG_IMAGE=""
check "a PostgreSQL 15 + pgvector image is made locally ($((SECONDS - compose_started)) s)" test -n "$PG_IMAGE"
COMPOSE="treeagent-test-compose-$suffix"
compose_cleanup() {
  podman rm -f -t 0 "$COMPOSE-app" "$COMPOSE-db" >/dev/null 2>&1
  podman volume rm -f "$COMPOSE-db-data" "$COMPOSE-app-cache" >/dev/null 2>&1
  podman network rm -f "$COMPOSE" >/dev/null 2>&1
}
trap 'compose_cleanup; cleanup' EXIT
COMPOSE_PORT=$((20000 + RANDOM % 20000))
COMPOSE_URL="http://127.0.0.1:$COMPOSE_PORT"
export POSTGRES_PASSWORD="pw-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" TREEAGENT_API_KEYS="$API_KEY" \
  TREEAGENT_IMAGE="$IMAGE"
compose_options() { # <service>: its podman run options, with the test's tree and a free port
  node scripts/compose-podman-args.mjs options "$1" "$COMPOSE" |
    sed -e "s|^$PWD/deploy/tree:|$work/tree:|" -e "s|^127\.0\.0\.1:3000:3000\$|127.0.0.1:$COMPOSE_PORT:3000|"
}
wait_healthy() { # <container>: its compose health check passes (podman healthcheck run), within 90 s
  for _ in $(seq 1 180); do
    podman healthcheck run "$1" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}
if [ -n "$PG_IMAGE" ] && podman network create "$COMPOSE" >/dev/null; then
  mapfile -t db_options < <(compose_options db)
  mapfile -t app_options < <(compose_options app)
  mapfile -t app_command < <(node scripts/compose-podman-args.mjs command app)
  app_image="$(node scripts/compose-podman-args.mjs image app)"
  check "compose.yaml's app image is overridden by TREEAGENT_IMAGE" test "$app_image" = "$IMAGE"
  podman_run -d --name "$COMPOSE-db" --network "$COMPOSE" --health-interval disable "${db_options[@]}" \
    "$PG_IMAGE" >/dev/null
  check "the database container becomes healthy (compose's pg_isready health check)" wait_healthy "$COMPOSE-db"
  check "the init script of compose.yaml created the vector extension" test \
    "$(podman exec "$COMPOSE-db" psql -X -U treeagent -d treeagent -tAc "SELECT count(*) FROM pg_extension WHERE extname = 'vector'")" = 1
  podman_run -d --name "$COMPOSE-app" --network "$COMPOSE" --health-interval disable "${app_options[@]}" \
    "$app_image" "${app_command[@]}" >/dev/null
  check "the app container becomes healthy (compose's /ready health check)" wait_healthy "$COMPOSE-app"
  check "it answers on 127.0.0.1, where compose.yaml publishes it" wait_ready "$COMPOSE_URL"
  session_json="$(new_session "$COMPOSE_URL")"
  SESSION="$(echo "$session_json" | json '.sessionId')"
  TOKEN="$(echo "$session_json" | json '.token')"
  answer="$(say "$COMPOSE_URL" "$SESSION" "$TOKEN" shipping | json '.messages[0].content')"
  check "a conversation over HTTP (\"$answer\")" test "$answer" = "Shipping is 7.90."
  check "the session is in PostgreSQL, in the db container" test "$(podman exec "$COMPOSE-db" psql -X -U treeagent \
    -d treeagent -tAc "SELECT count(*) FROM public.treeagent_sessions WHERE id = '$SESSION'")" = 1
  restart_app() { podman restart -t 15 "$COMPOSE-app" >/dev/null; }
  check "the app restarts (podman restart, SIGTERM then a new process)" restart_app
  check "the restarted app becomes healthy" wait_healthy "$COMPOSE-app"
  check "the conversation is found again on PostgreSQL (2 history entries)" \
    test "$(history_length "$COMPOSE_URL" "$SESSION" "$TOKEN")" = 2
  turn="$(say "$COMPOSE_URL" "$SESSION" "$TOKEN" shipping | json '.turn')"
  check "and goes on at turn 2 (got $turn)" test "$turn" = 2
else
  check "a podman network for the compose setup is created" false
fi
compose_cleanup
echo "compose setup: $((SECONDS - compose_started)) s"

# --- 5. on PostgreSQL ---------------------------------------------------------------------------
DATABASE_URL="${TREEAGENT_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:54329/treeagent_test}"
SCHEMA="container_test_$suffix"
psql_url() { psql -X -q -v ON_ERROR_STOP=1 "$DATABASE_URL" "$@"; }
if ! command -v psql >/dev/null || ! psql_url -c 'SELECT 1' >/dev/null 2>&1; then
  check "PostgreSQL at $DATABASE_URL answers (run scripts/setup-postgres.sh as root)" false
  finish
fi
PG_PORT=$((20000 + RANDOM % 20000))
PG_URL="http://127.0.0.1:$PG_PORT"
pg_run() { # the host's network: the test server listens on 127.0.0.1 only
  start "$1" --network host -e "TREEAGENT_DATABASE_URL=$DATABASE_URL" -e "TREEAGENT_API_KEYS=$API_KEY" -- \
    /opt/treeagent/tree/tree.json --host 127.0.0.1 --port "$PG_PORT" --schema "$SCHEMA" --data /tmp/treeagent
}
pg_run "treeagent-test-pg1-$suffix"
check "on PostgreSQL (TREEAGENT_DATABASE_URL) the container becomes ready" wait_ready "$PG_URL"
session_json="$(new_session "$PG_URL")"
SESSION="$(echo "$session_json" | json '.sessionId')"
TOKEN="$(echo "$session_json" | json '.token')"
say "$PG_URL" "$SESSION" "$TOKEN" shipping >/dev/null
podman rm -f -t 20 "treeagent-test-pg1-$suffix" >/dev/null
pg_run "treeagent-test-pg2-$suffix"
check "a second container on PostgreSQL becomes ready" wait_ready "$PG_URL"
turn="$(say "$PG_URL" "$SESSION" "$TOKEN" shipping | json '.turn')"
check "it continues the first container's session at turn 2 (got $turn)" test "$turn" = 2
psql_url -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1
finish
