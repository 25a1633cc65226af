/**
 * A "server process" for the kill -9 test: runs interactions on one session in a loop through
 * TreeAgent + PostgresSessionStore and prints `ack <turn>` after each one is acknowledged.
 * Usage: node --import tsx commit-loop.ts <database-url> <schema> <session-id>
 */
import { PostgresSessionStore } from '../index.js';
import { testAgent } from './agent.js';

const [url, schema, sessionId] = process.argv.slice(2);
if (!url || !schema || !sessionId) {
  console.error('usage: commit-loop.ts <database-url> <schema> <session-id>');
  process.exit(2);
}
const store = new PostgresSessionStore({ connection: url, schema });
const agent = testAgent({ name: `pid-${process.pid}`, sessionStore: store });
for (let i = 0; ; i++) {
  const output = await agent.send(sessionId, i % 2 === 0 ? 'alpha' : 'beta');
  process.stdout.write(`ack ${output.turn}\n`);
}
