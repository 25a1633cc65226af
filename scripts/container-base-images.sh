#!/usr/bin/env bash
# Makes the two local base images the container test builds deploy/Containerfile from, since no
# registry image can be pulled on the test machines (the Containerfile's defaults are the official
# node:20-bookworm and node:20-bookworm-slim):
#   localhost/treeagent-test-node:<node version>-slim   Debian 12 (debootstrap --variant=minbase)
#                                                       with this machine's Node.js and npm copied in
#                                                       (Debian 12 packages Node 18 only)
#   localhost/treeagent-test-node:<node version>-build  the same with python3, make, g++ and Node's
#                                                       headers, to compile better-sqlite3 from source
#                                                       (no prebuilt binary can be downloaded here),
#                                                       and this machine's CA bundle for npm
# The debootstrap root file system is cached in .cache/container/ (ignored by git); an image that
# exists is kept. Run as root. Prints the two image names on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container-podman.sh

CACHE=.cache/container
ROOTFS="$CACHE/rootfs-bookworm"
NODE_BIN="$(command -v node)"
NODE_VERSION="$("$NODE_BIN" -p 'process.versions.node')"
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$NODE_BIN")")")"
DEBIAN="localhost/treeagent-test-debian:bookworm"
SLIM="localhost/treeagent-test-node:${NODE_VERSION}-slim"
BUILD="localhost/treeagent-test-node:${NODE_VERSION}-build"
log() { echo "container-base-images: $*" >&2; }

# The root file system is needed only to make the Debian image: a machine that has the image skips it.
if ! podman image exists "$DEBIAN" && [ ! -f "$ROOTFS/.complete" ]; then
  log "debootstrap Debian 12 (minbase) into $ROOTFS"
  rm -rf "$ROOTFS"
  mkdir -p "$CACHE"
  mirror="${TREEAGENT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$mirror" >"$CACHE/debootstrap.log" 2>&1 || {
    tail -n 20 "$CACHE/debootstrap.log" >&2
    exit 1
  }
  # Package lists and caches are not part of an image.
  rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/cache/apt/archives/*.deb
  touch "$ROOTFS/.complete"
fi

if ! podman image exists "$DEBIAN"; then
  log "importing $ROOTFS as $DEBIAN"
  tar --exclude=./.complete -C "$ROOTFS" -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - "$DEBIAN" >/dev/null
fi

if ! podman image exists "$SLIM"; then
  log "building $SLIM (Node.js $NODE_VERSION from $NODE_PREFIX)"
  stage="$(mktemp -d /tmp/treeagent-base.XXXXXX)"
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/local/bin" "$stage/local/lib/node_modules"
  cp "$NODE_BIN" "$stage/local/bin/node"
  cp -r "$NODE_PREFIX/lib/node_modules/npm" "$stage/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/local/bin/npx"
  cat >"$stage/Containerfile" <<EOF
FROM $DEBIAN
COPY local/ /usr/local/
ENV PATH=/usr/local/bin:/usr/bin:/bin
CMD ["node"]
EOF
  podman_build -t "$SLIM" "$stage" >"$CACHE/build-slim.log" 2>&1 || {
    tail -n 30 "$CACHE/build-slim.log" >&2
    exit 1
  }
  rm -rf "$stage"
  trap - EXIT
fi

if ! podman image exists "$BUILD"; then
  log "building $BUILD (python3, make, g++, Node.js headers)"
  stage="$(mktemp -d /tmp/treeagent-build-base.XXXXXX)"
  trap 'rm -rf "$stage"' EXIT
  cp -r "$NODE_PREFIX/include/node" "$stage/node-headers"
  # This machine's trust store, so that npm in the build reaches the registry as it does here
  # (through whatever TLS proxy the machine trusts).
  cp "${TREEAGENT_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}" "$stage/ca-bundle.crt"
  cat >"$stage/Containerfile" <<EOF
FROM $SLIM
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null && rm -rf /var/lib/apt/lists/*
COPY node-headers /usr/local/include/node
COPY ca-bundle.crt /usr/local/share/ca-bundle.crt
ENV npm_config_build_from_source=true npm_config_nodedir=/usr/local npm_config_cafile=/usr/local/share/ca-bundle.crt NODE_EXTRA_CA_CERTS=/usr/local/share/ca-bundle.crt
EOF
  podman_build -t "$BUILD" "$stage" >"$CACHE/build-base.log" 2>&1 || {
    tail -n 30 "$CACHE/build-base.log" >&2
    exit 1
  }
  rm -rf "$stage"
  trap - EXIT
fi
echo "$SLIM"
echo "$BUILD"
