import { createInterface } from 'node:readline/promises';
import { type AgentEvent, type AgentOutput, formatErrorSummary, TreeAgent } from '@treeagent/core';
import { openDataDirectory } from '../data-directory.js';
import { type LoadedTree, loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { fitOptions } from '../space.js';
import { defineCommand } from './command-definition.js';

export interface ChatOptions {
  config?: string;
  /** Data directory (SQLite sessions, ingested documents, embedding cache). */
  data?: string;
  debug?: boolean;
  session?: string;
}

/** `treeagent chat <tree>`: talk to the agent in the terminal; `--debug` shows each explore decision. */
export async function chatCommand(
  treePath: string,
  options: ChatOptions,
  out: Output,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const data = openDataDirectory(options.data);
  try {
    return await chat(
      new TreeAgent({
        tree: loaded.tree,
        ...data.options,
        ...fitOptions(options.data, out, loaded.path, loaded.fitBase),
        ...loaded.agentOptions,
      }),
      loaded,
      options,
      out,
      input,
    );
  } finally {
    await data.close();
  }
}

async function chat(
  agent: TreeAgent,
  loaded: LoadedTree,
  options: ChatOptions,
  out: Output,
  input: NodeJS.ReadableStream,
): Promise<number> {
  await agent.ready();
  out.error(
    `${loaded.tree.name}: ${loaded.tree.nodes.size} nodes; ${loaded.modelSource}. Empty line or Ctrl+D to quit.`,
  );
  const readline = createInterface({ input, terminal: false });
  const session = options.session ?? `chat-${Date.now()}`;
  let options_: string[] = [];
  for await (const raw of readline) {
    const line = raw.trim();
    if (!line) break;
    const picked = /^\d+$/.test(line)
      ? options_[Number(line) - 1]
      : options_.find((option) => option.toLowerCase() === line.toLowerCase());
    const output = await streamTurn(agent, session, picked ?? line, picked, out, options.debug ?? false);
    if (output) options_ = output.messages.at(-1)?.options ?? [];
  }
  readline.close();
  return 0;
}

async function streamTurn(
  agent: TreeAgent,
  session: string,
  text: string,
  selectedOption: string | undefined,
  out: Output,
  debug: boolean,
): Promise<AgentOutput | null> {
  let streamed = '';
  let result: AgentOutput | null = null;
  for await (const event of agent.stream(session, text, selectedOption ? { selectedOption } : {})) {
    if (debug) printDebug(event, out);
    if (event.type === 'text-delta') {
      // Generated text is shown as it streams; the complete message then only adds its extras.
      out.write(event.delta);
      streamed += event.delta;
    }
    if (event.type === 'message') {
      const message = event.message;
      if (streamed) out.write('\n');
      else out.log(`${message.isWarning ? '⚠ ' : ''}${message.content ?? ''}`);
      message.options.forEach((option, index) => {
        out.log(`  ${index + 1}) ${option}`);
      });
      for (const source of message.sources) out.log(`  · ${source.title ?? source.content.slice(0, 60)}`);
      for (const file of [...message.attachments, ...message.dynamicAttachments])
        out.log(`  📎 ${file.name}`);
      streamed = '';
    }
    if (event.type === 'turn-end') {
      result = event.output;
      if (result.status === 'no-match') out.log('(nothing in the agent fits this message)');
    }
    if (event.type === 'error') out.error(`error ${formatErrorSummary(event.error)}`);
  }
  return result;
}

function printDebug(event: AgentEvent, out: Output): void {
  if (event.type === 'explore-decision') {
    const best = event.best
      ? `best "${event.best.text}" (node ${event.best.nodeId}) ${event.best.similarity.toFixed(3)}`
      : 'no chunk';
    const source = event.thresholdSource === 'calibrated' ? ' (calibrated)' : '';
    const threshold = event.threshold === null ? '' : ` vs ${event.threshold}${source}`;
    out.error(
      `  [explore] node ${event.nodeId}: ${event.action} — ${best}${threshold} → ${event.nextNodeId}`,
    );
  } else if (event.type === 'fail-counter')
    out.error(`  [fail-counter] ${event.value} (${event.reason} at node ${event.nodeId})`);
  else if (event.type === 'step-start' && event.step !== 'before')
    out.error(`  [${event.step}] node ${event.nodeId}`);
  else if (event.type === 'fallback')
    out.error(
      `  [fallback] agent ${event.agentId}: ${formatErrorSummary(event.error)} → node ${event.nodeTarget}`,
    );
}

/** `treeagent chat`: its help, arguments and options (the command table, `command-table.ts`). */
export const chatDefinition = defineCommand({
  name: 'chat',
  description: "Chat with the agent in the terminal. Type an option's number or text to pick it.",
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    { flags: '--config <file>', description: 'model configuration' },
    { flags: '--session <id>', description: 'session id (sessions persist in the data directory)' },
    {
      flags: '--data <directory>',
      description: 'data directory (SQLite: sessions, ingested documents, embedding cache)',
      default: '.treeagent',
    },
    { flags: '--debug', description: 'show each explore decision, step and fallback' },
  ],
  run: ([tree], options, out) => chatCommand(tree, options, out),
});
