// scripts/compose-podman-args.mjs: the podman run options that scripts/container-test.sh takes from
// deploy/compose.yaml (run as the container test runs it: node, on the real compose file).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./compose-podman-args.mjs', import.meta.url));
const deploy = fileURLToPath(new URL('../deploy', import.meta.url));
const run = (args: string[], env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .trimEnd()
    .split('\n');
const secrets = { POSTGRES_PASSWORD: 'pw-test', TREEAGENT_API_KEYS: 'key-of-16-chars-or-more' };

describe('compose-podman-args', () => {
  it("gives the app compose's environment, with the password filled in, and its address db", () => {
    const options = run(['options', 'app', 'p'], secrets);
    expect(options).toContain('TREEAGENT_DATABASE_URL=postgres://treeagent:pw-test@db:5432/treeagent');
    expect(options).toContain('TREEAGENT_API_KEYS=key-of-16-chars-or-more');
    expect(options).toContain(`${deploy}/tree:/opt/treeagent/tree:ro`);
    expect(options).toContain('p-app-cache:/var/lib/treeagent');
    expect(options).toContain('127.0.0.1:3000:3000');
    expect(options).toContain('--read-only');
    expect(options.slice(options.indexOf('--tmpfs'), options.indexOf('--tmpfs') + 2)).toEqual([
      '--tmpfs',
      '/tmp',
    ]);
    expect(JSON.parse(options[options.indexOf('--health-cmd') + 1])[0]).toBe('node');
  });

  it('gives the database its init script, its volume, its pg_isready health check and its alias', () => {
    const options = run(['options', 'db', 'p'], secrets);
    expect(options.slice(0, 2)).toEqual(['--network-alias', 'db']);
    expect(options).toContain(`${deploy}/postgres-init.sql:/docker-entrypoint-initdb.d/10-treeagent.sql:ro`);
    expect(options).toContain('p-db-data:/var/lib/postgresql/data');
    expect(JSON.parse(options[options.indexOf('--health-cmd') + 1])).toEqual([
      'pg_isready',
      '-U',
      'treeagent',
      '-d',
      'treeagent',
      '-h',
      '127.0.0.1',
    ]);
  });

  it('takes the app image from TREEAGENT_IMAGE, with the default of compose.yaml otherwise', () => {
    expect(run(['image', 'app'], { TREEAGENT_IMAGE: 'localhost/treeagent:test' })).toEqual([
      'localhost/treeagent:test',
    ]);
    expect(run(['image', 'app'])).toEqual(['localhost/treeagent:latest']);
  });

  it("refuses a missing required variable with compose's message", () => {
    expect(() => run(['options', 'db'])).toThrow(
      /POSTGRES_PASSWORD is not set: set POSTGRES_PASSWORD in deploy\/\.env/,
    );
  });

  it('names the services when asked for one that does not exist', () => {
    expect(() => run(['options', 'web'])).toThrow(/the services of deploy\/compose.yaml are db, app/);
  });
});
