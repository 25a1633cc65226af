import { createInterface } from 'node:readline/promises';
import { type AgentOutput, TreeAgent } from '@treeagent/core';
import { describePath, playScript } from './conversation.js';
import { bikeShopTree } from './tree.js';

/**
 * The demo: plays a scripted conversation with the bike-shop agent in the terminal, printing each
 * answer and the nodes it went through; then, on an interactive terminal, lets you chat with it.
 */
const tree = bikeShopTree();
const agent = new TreeAgent({ tree });
const nameOf = (id: number) => tree.nodes.get(id)?.name ?? tree.nodes.get(id)?.type ?? String(id);

function print(output: AgentOutput): void {
  for (const message of output.messages) {
    const prefix = message.isWarning ? '⚠ ' : '';
    console.log(`  agente: ${prefix}${message.content ?? ''}`);
    if (message.options.length)
      console.log(`          opzioni: ${message.options.map((option) => `[${option}]`).join(' ')}`);
    for (const source of message.sources) console.log(`          fonte: ${source.title ?? ''}`);
  }
  if (output.status === 'no-match') console.log('  agente: (nessun nodo corrisponde al messaggio)');
  console.log(`  \x1b[2mpercorso: ${describePath(output, nameOf)}\x1b[0m`);
}

console.log(
  `Tree Agent demo — ${tree.name}: ${tree.nodes.size} nodes, ${tree.chunks.length} chunks, offline hashed embedder.\n`,
);
console.log('Scripted conversation:\n');
await playScript(agent, 'demo-script', (turn, output) => {
  console.log(`utente: ${turn.selectedOption ? `[${turn.selectedOption}]` : turn.say}`);
  print(output);
});

if (process.stdin.isTTY) {
  console.log('\nNow you: write a message (empty line or Ctrl+D to quit).\n');
  const readline = createInterface({ input: process.stdin, output: process.stdout });
  let options: string[] = [];
  for (;;) {
    const line = (await readline.question('utente: ').catch(() => '')).trim();
    if (!line) break;
    const selectedOption = options.find((option) => option.toLowerCase() === line.toLowerCase());
    const output = await agent.send('demo-you', line, selectedOption ? { selectedOption } : {});
    options = output.messages.at(-1)?.options ?? [];
    print(output);
  }
  readline.close();
}
