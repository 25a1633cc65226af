// Reads deploy/compose.yaml and prints, one per line, what `podman run` needs to start one of its
// services as compose would, so that scripts/container-test.sh runs the two containers from the
// compose file itself rather than from a copy of it:
//   node scripts/compose-podman-args.mjs options <service> <prefix>   environment (-e), volumes (-v:
//        named ones as <prefix>-<name>, ./paths from deploy/), ports (-p), read_only, tmpfs, the health
//        check (--health-cmd), stop_grace_period, and the service name as its network alias
//   node scripts/compose-podman-args.mjs image <service>               the image
//   node scripts/compose-podman-args.mjs command <service>             the command's arguments
// ${VAR}, ${VAR:-default} and ${VAR:?message} are filled in from the environment as compose does.
// restart and depends_on are the caller's: podman run has no depends_on (the caller waits for health).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const deploy = resolve(dirname(fileURLToPath(import.meta.url)), '../deploy');
const [mode, name, prefix = 'compose'] = process.argv.slice(2);
const compose = parse(readFileSync(resolve(deploy, 'compose.yaml'), 'utf8'));
const service = compose.services?.[name];
if (!service || !['options', 'image', 'command'].includes(mode)) {
  const services = Object.keys(compose.services ?? {}).join(', ');
  console.error(
    `compose-podman-args: usage: options|image|command <service> [prefix]; the services of deploy/compose.yaml are ${services}`,
  );
  process.exit(2);
}

function fill(text) {
  return String(text).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, variable, kind, word) => {
    const value = process.env[variable];
    if (value) return value;
    if (kind === '?') throw new Error(`compose-podman-args: ${variable} is not set: ${word}`);
    return kind === '-' ? word : '';
  });
}

const out = [];
if (mode === 'image') out.push(fill(service.image));
if (mode === 'command') out.push(...(service.command ?? []).map(fill));
if (mode === 'options') {
  out.push('--network-alias', name);
  for (const [key, value] of Object.entries(service.environment ?? {}))
    out.push('-e', `${key}=${fill(value)}`);
  for (const volume of service.volumes ?? []) {
    const [source, ...rest] = fill(volume).split(':');
    const from = source.startsWith('.') ? resolve(deploy, source) : `${prefix}-${source}`;
    out.push('-v', [from, ...rest].join(':'));
  }
  for (const port of service.ports ?? []) out.push('-p', fill(port));
  if (service.read_only) out.push('--read-only');
  for (const path of service.tmpfs ?? []) out.push('--tmpfs', path);
  const test = service.healthcheck?.test;
  if (Array.isArray(test) && test[0] === 'CMD') out.push('--health-cmd', JSON.stringify(test.slice(1)));
  const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '');
  if (grace) out.push('--stop-timeout', grace[1]);
}
for (const line of out) {
  if (line.includes('\n')) throw new Error(`compose-podman-args: a value of ${name} holds a line break`);
  console.log(line);
}
