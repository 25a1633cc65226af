/**
 * Scale-out on one machine: turns per second through HAProxy in front of 1, then 3, `treeagent serve`
 * processes on one PostgreSQL (the test server of scripts/setup-postgres.sh), all on 127.0.0.1. The
 * tree of the load-balancer test (every message to one node, no model, no wait in the callback);
 * closed-loop clients, one session each, in this process. Prints turns/s, p50 and p99 per setup, the
 * 3-to-1 ratio, and the CPU each part used (Node processes, HAProxy, PostgreSQL, this load generator),
 * which is what explains the ceiling on a 2-core machine.
 *
 *   npx tsx bench/cluster-load.ts [--clients=24] [--seconds=10] [--processes=1,3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freePort,
  type ServeProcess,
  startHaproxy,
  startServeProcess,
  writeClusterFiles,
} from '../packages/cli/src/test-support/cluster.js';
import { testSchema } from '../packages/postgres/src/test-support/database.js';
import { closedLoop } from './lib/closed-loop.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';

const argument = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const CLIENTS = Number(argument('clients', '24'));
const SECONDS = Number(argument('seconds', '10'));
const SETUPS = argument('processes', '1,3').split(',').map(Number);
const DATABASE_URL = process.env.TREEAGENT_TEST_DATABASE_URL || DEFAULT_DATABASE_URL;
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds (user + system) used so far by the processes whose command line matches. */
function cpuSeconds(match: (command: string, pid: number) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!match(command, pid)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / TICKS;
}

async function run(processes: number) {
  const scratch = mkdtempSync(join(tmpdir(), 'treeagent-cluster-bench-'));
  const { schema, drop } = testSchema('cluster_bench');
  const files = await writeClusterFiles(scratch);
  const servers: ServeProcess[] = [];
  try {
    const ports = await Promise.all(Array.from({ length: processes }, () => freePort()));
    for (const [i, port] of ports.entries())
      servers.push(
        await startServeProcess({
          files,
          port,
          data: join(scratch, `data-${i}`),
          databaseUrl: DATABASE_URL,
          schema,
          env: { TREEAGENT_TEST_TURN_DELAY_MS: '0' },
        }),
      );
    const balancer = await startHaproxy(join(scratch, 'haproxy'), ports);
    const pids = new Set(servers.map((server) => server.child.pid!));
    const parts = {
      'treeagent serve': (_: string, pid: number) => pids.has(pid),
      haproxy: (command: string) => command.startsWith('/usr/sbin/haproxy') && command.includes(scratch),
      postgres: (command: string) => command.startsWith('postgres:'),
      'load generator': (_: string, pid: number) => pid === process.pid,
    };
    const before = Object.fromEntries(
      Object.entries(parts).map(([name, match]) => [name, cpuSeconds(match)]),
    );
    const result = await closedLoop(balancer.url, {
      clients: CLIENTS,
      seconds: SECONDS,
      warmupSeconds: 2,
      message: (client, i) => `hello ${client} ${i}`,
    });
    const cpu = Object.fromEntries(
      Object.entries(parts).map(([name, match]) => [
        name,
        (cpuSeconds(match) - before[name]!) / (SECONDS + 2),
      ]),
    );
    await balancer.stop();
    return { processes, ...result, cpu };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    await drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const rows = [];
for (const processes of SETUPS) {
  process.stdout.write(`${processes} process${processes === 1 ? '' : 'es'} behind HAProxy…\n`);
  rows.push(await run(processes));
}
process.stdout.write(
  `\n${CLIENTS} clients, ${SECONDS} s measured, PostgreSQL at ${new URL(DATABASE_URL).host}, ${execFileSync('nproc', { encoding: 'utf8' }).trim()} cores (load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})\n`,
);
process.stdout.write(
  'processes  turns/s  p50 ms  p99 ms  errors  CPU cores used: serve / haproxy / postgres / load generator\n',
);
for (const row of rows)
  process.stdout.write(
    `${String(row.processes).padStart(9)}  ${row.turnsPerSecond.toFixed(0).padStart(7)}  ${row.p50Ms.toFixed(1).padStart(6)}  ${row.p99Ms.toFixed(1).padStart(6)}  ${String(row.errors).padStart(6)}  ${Object.values(
      row.cpu,
    )
      .map((value) => value.toFixed(2))
      .join(' / ')}\n`,
  );
if (rows.length >= 2) {
  const [first, last] = [rows[0]!, rows.at(-1)!];
  process.stdout.write(
    `ratio ${last.processes} to ${first.processes} processes: ${(last.turnsPerSecond / first.turnsPerSecond).toFixed(2)}× the turns/s, ${(last.p99Ms / first.p99Ms).toFixed(2)}× the p99\n`,
  );
}
