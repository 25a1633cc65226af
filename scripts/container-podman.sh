# Sourced by the container scripts: podman as this kind of machine allows it.
#   podman_build <args…>   podman build with host networking (npm's registry, Debian's mirror) and
#                          chroot isolation for RUN steps (no OCI runtime, no cgroups needed), in
#                          Docker format (the HEALTHCHECK is kept)
#   podman_run <args…>     podman run with the flags found by podman_probe
#   podman_probe <image>   finds flags under which a container starts, plainest first:
#     1. none;
#     2. --ulimit nofile (this shell's limit) and nproc (4096): podman asks for 1048576 open files, and without
#        CAP_SYS_RESOURCE (a sandbox) raising a limit is refused (crun: setrlimit: Operation not permitted);
#     3. the same with --runtime runc: crun refuses a host whose cgroup v2 hierarchy holds a controller
#        while v1 holds the others ("cgroups in hybrid mode not supported"), runc accepts it.
PODMAN_RUN_FLAGS=()

podman_build() {
  podman build --network=host --isolation=chroot --format docker "$@"
}

podman_probe() {
  local image="$1" limits
  # Below this shell's limits (asking for exactly them was refused for nproc here too).
  limits=(--ulimit "nofile=$(ulimit -n):$(ulimit -n)" --ulimit "nproc=4096:4096")
  local candidates=("" "${limits[*]}" "--runtime runc ${limits[*]}")
  local flags error
  for flags in "${candidates[@]}"; do
    # shellcheck disable=SC2086
    if error="$(podman run --rm --no-healthcheck --entrypoint /bin/true $flags "$image" 2>&1)"; then
      # shellcheck disable=SC2206
      PODMAN_RUN_FLAGS=($flags)
      echo "podman: containers start with flags: ${flags:-(none)}" >&2
      return 0
    fi
    echo "podman: with flags '${flags:-(none)}' a container does not start: $error" >&2
  done
  return 1
}

podman_run() {
  podman run "${PODMAN_RUN_FLAGS[@]}" "$@"
}
