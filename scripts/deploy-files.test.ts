import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The deployment files of deploy/ checked against what they deploy, on paper: the flags they pass
 * exist on `treeagent serve`, the environment variables they set are read by it, the probes and
 * health checks name the server's health routes, and the compose file, the Kubernetes manifests and
 * the Containerfile agree on the user, the port, the volumes and the shutdown times. (The image itself
 * is built and run by scripts/container-test.sh.)
 */

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The long options of `treeagent serve`, from its command definition. */
function serveFlags(): Set<string> {
  const serve = read('packages/cli/src/commands/serve.ts');
  const definition = serve.slice(serve.indexOf('export const serveDefinition'));
  return new Set([...definition.matchAll(/flags: '(--[a-z-]+)/g)].map((match) => match[1]!));
}

/** The TREEAGENT_* environment variables `treeagent serve` reads. */
function serveEnvironment(): Set<string> {
  const sources = ['packages/cli/src/commands/serve.ts', 'packages/cli/src/server-stores.ts']
    .map(read)
    .join('\n');
  return new Set([...sources.matchAll(/process\.env\.(TREEAGENT_[A-Z_]+)/g)].map((match) => match[1]!));
}

/** The paths of the server's health routes. */
function healthPaths(): Set<string> {
  const routes = read('packages/server/src/health/health-routes.ts');
  return new Set([...routes.matchAll(/routes\.get\('([^']+)'/g)].map((match) => match[1]!));
}

function expectServeArguments(args: string[]): void {
  const flags = serveFlags();
  for (const arg of args.filter((value) => value.startsWith('--')))
    expect(flags.has(arg), `${arg} is an option of treeagent serve`).toBe(true);
  expect(args[0]).toBe('/opt/treeagent/tree/tree.json');
  expect(args[args.indexOf('--data') + 1]).toBe('/var/lib/treeagent');
  expect(args[args.indexOf('--port') + 1]).toBe('3000');
}

const containerfile = read('deploy/Containerfile');
const instruction = (name: string) =>
  containerfile
    .split('\n')
    .filter((line) => line.startsWith(`${name} `))
    .map((line) => line.slice(name.length + 1));

describe('deploy/Containerfile', () => {
  it('runs treeagent serve as 10001 on port 3000, the data directory a volume, healthy on /ready', () => {
    expect(instruction('USER')).toEqual(['10001:10001']);
    expect(instruction('EXPOSE')).toEqual(['3000']);
    expect(instruction('VOLUME')).toEqual(['["/var/lib/treeagent"]']);
    expect(JSON.parse(instruction('ENTRYPOINT')[0]!)).toEqual(['treeagent', 'serve']);
    expectServeArguments(JSON.parse(instruction('CMD')[0]!));
    expect(healthPaths()).toContain('/ready');
    expect(containerfile).toMatch(/HEALTHCHECK[^\n]*\n[^\n]*127\.0\.0\.1:3000\/ready/);
    // The base images are build arguments (the official Node.js images by default).
    expect(instruction('FROM').join(' | ')).toMatch(/^\$\{BUILD_IMAGE\} AS build \| \$\{RUNTIME_IMAGE\}$/);
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(read('deploy/compose.yaml'));
  const { app, db } = compose.services;

  it('starts the app once PostgreSQL is healthy, with the vector extension of scripts/setup-postgres.sh', () => {
    expect(app.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(db.healthcheck.test).toContain('pg_isready');
    const init = db.volumes.find((volume: string) => volume.includes('docker-entrypoint-initdb.d'));
    expect(read(`deploy/${init.split(':')[0].replace('./', '')}`)).toContain(
      'CREATE EXTENSION IF NOT EXISTS vector',
    );
    expect(read('scripts/setup-postgres.sh')).toContain('CREATE EXTENSION IF NOT EXISTS vector');
  });

  it('configures the app through variables serve reads and flags it has; healthy on /ready', () => {
    const environment = serveEnvironment();
    for (const name of Object.keys(app.environment)) expect(environment, name).toContain(name);
    expect(app.environment.TREEAGENT_DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@db:5432\//);
    expectServeArguments(app.command);
    expect(app.healthcheck.test.join(' ')).toContain('http://127.0.0.1:3000/ready');
    expect(app.read_only).toBe(true);
    expect(app.tmpfs).toContain('/tmp');
    expect(app.volumes).toContain('app-cache:/var/lib/treeagent');
    expect(app.volumes).toContain('./tree:/opt/treeagent/tree:ro');
  });
});

describe('deploy/kubernetes', () => {
  const documents = ['deployment', 'service', 'secret', 'postgres-external'].flatMap((name) =>
    parseAllDocuments(read(`deploy/kubernetes/${name}.yaml`)).map((document) => document.toJS()),
  );
  const byKind = (kind: string) => documents.filter((document) => document.kind === kind);
  const deployment = byKind('Deployment')[0];
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];

  it('probes readiness on /ready and liveness on /health, routes the server has', () => {
    const paths = healthPaths();
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/health');
    expect(paths).toContain('/ready');
    expect(paths).toContain('/health');
  });

  it('runs as the image user with a read-only root, /tmp and the data directory writable', () => {
    expect(`${pod.securityContext.runAsUser}:${pod.securityContext.runAsGroup}`).toBe(instruction('USER')[0]);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const mounts = container.volumeMounts.map((mount: { mountPath: string }) => mount.mountPath);
    expect(mounts).toEqual(expect.arrayContaining(['/tmp', '/var/lib/treeagent', '/opt/treeagent/tree']));
  });

  it('takes its configuration from the Secret, through variables serve reads, and flags it has', () => {
    expectServeArguments(container.args);
    const secret = byKind('Secret')[0];
    const environment = serveEnvironment();
    for (const variable of container.env) {
      expect(environment, variable.name).toContain(variable.name);
      const reference = variable.valueFrom.secretKeyRef;
      expect(reference.name).toBe(secret.metadata.name);
      expect(Object.keys(secret.stringData)).toContain(reference.key);
    }
    const url = secret.stringData['database-url'] as string;
    const host = new URL(url).hostname;
    expect(byKind('Service').map((service) => service.metadata.name)).toContain(host);
  });

  it('gives turns in flight their shutdown timeout plus the preStop pause before SIGKILL', () => {
    const shutdownMs = Number(container.args[container.args.indexOf('--shutdown-timeout') + 1]);
    const preStopMs = Number(
      /setTimeout\([^,]+, (\d+)\)/.exec(container.lifecycle.preStop.exec.command.join(' '))![1],
    );
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs + preStopMs);
  });

  it("sends the Service to the pods' named port", () => {
    const service = byKind('Service').find((candidate) => candidate.metadata.name === 'treeagent');
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(container.ports.map((port: { name: string }) => port.name)).toContain(
      service.spec.ports[0].targetPort,
    );
    expect(container.ports[0].containerPort).toBe(Number(instruction('EXPOSE')[0]));
  });
});
