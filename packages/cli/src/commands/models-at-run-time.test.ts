import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import { startDev } from './dev.js';

// Inside the package, so that the tree modules resolve @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// No model from the machine's environment: these are the trees of a user who has configured none.
beforeEach(() => {
  for (const name of ['TREEAGENT_PROVIDER', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'TREEAGENT_API_KEY'])
    vi.stubEnv(name, '');
  return () => vi.unstubAllEnvs();
});

/** A phone carrier's tree: an llm node that summarises, and a static answer. */
const TREE = `import { defineTree } from '@treeagent/core';
export default defineTree({ name: 'carrier', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'llm', parent: 2, name: 'plan advice', chunks: ['which plan should I choose', 'recommend me a plan'],
    prompt: { prompt: 'Recommend a plan.' }, after: () => ({ nodeTarget: 4 }) },
  { id: 4, type: 'emit', parent: 3, emit: { message: { type: 'static', content: 'done' } } },
  { id: 5, type: 'emit', parent: 2, name: 'roaming', chunks: ['roaming abroad', 'using my phone abroad'],
    emit: { message: { type: 'static', content: 'Roaming is included in the EU.' } } },
] });
`;

function writeTree(name: string, text = TREE): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

describe('a tree with llm nodes and no model configured', () => {
  test('treeagent lint checks the real tree, lists the llm node as needing a model at run time, and exits 0', async () => {
    const out = capture();
    expect(await main(['lint', writeTree('lint.ts')], out)).toBe(0);
    const text = out.lines.join('\n');
    expect(text).toMatch(
      /node 3 \("plan advice"\): an llm node needs a model at run time: model "default" is not configured/,
    );
    expect(text).toContain('treeagent.config.json');
    expect(text).toContain('TREEAGENT_PROVIDER');
    expect(text).not.toContain('new TreeAgent');
    expect(text).toMatch(/0 errors/);
  });

  test('treeagent inspect shows the node and its missing model', async () => {
    const out = capture();
    expect(await main(['inspect', writeTree('inspect.ts')], out)).toBe(0);
    const text = out.lines.join('\n');
    expect(text).toMatch(/3 llm "plan advice" \(needs model "default" at run time\)/);
    const json = capture();
    expect(await main(['inspect', writeTree('inspect-json.ts'), '--json'], json)).toBe(0);
    const nodes = JSON.parse(json.out.join('\n')).nodes as { id: number; missingModel: string | null }[];
    expect(nodes.find((node) => node.id === 3)!.missingModel).toBe('default');
    expect(nodes.find((node) => node.id === 5)!.missingModel).toBeNull();
  });

  test('treeagent eval routes the real tree', async () => {
    const utterances = join(scratch, 'utterances.json');
    writeFileSync(
      utterances,
      JSON.stringify([
        ['can you recommend a plan', 'plan advice'],
        ['roaming when abroad', 'roaming'],
      ]),
    );
    const out = capture();
    expect(
      await main(['eval', writeTree('eval.ts'), utterances, '--data', join(scratch, 'eval-data')], out),
    ).toBe(0);
    expect(out.lines.join('\n')).toMatch(/plan advice +100.0%/);
  });

  test('treeagent dev serves it; the llm node answers that no language model is configured and how to configure one', async () => {
    const out = capture();
    const dev = await startDev(writeTree('dev.ts'), { port: '0', data: join(scratch, 'dev-data') }, out);
    try {
      expect(out.lines.join('\n')).toMatch(/node 3 \("plan advice"\): an llm node needs a model at run time/);
      const { sessionId, token } = (await (
        await fetch(`${dev.url}/api/v1/sessions`, { method: 'POST' })
      ).json()) as {
        sessionId: string;
        token: string;
      };
      const response = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-token': token },
        body: JSON.stringify({ message: 'which plan should I choose' }),
      });
      const { messages } = (await response.json()) as { messages: { content: string; isWarning: boolean }[] };
      expect(messages).toHaveLength(1);
      expect(messages[0]!.isWarning).toBe(true);
      expect(messages[0]!.content).toMatch(
        /^No language model configured: node 3 \("plan advice"\) needs the model "default"/,
      );
      expect(messages[0]!.content).toContain('docs/models.md');
      expect(messages[0]!.content).toContain('treeagent.config.json');
      expect(messages[0]!.content).not.toContain('new TreeAgent');
    } finally {
      await dev.close();
    }
  });

  test('treeagent serve still refuses to start without the model, naming the configuration file, not new TreeAgent', async () => {
    const { loadTree } = await import('../load-tree.js');
    const { TreeAgent } = await import('@treeagent/core');
    const loaded = await loadTree(writeTree('serve.ts'));
    const agent = new TreeAgent({ tree: loaded.tree, ...loaded.agentOptions });
    const error = (await agent.ready().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/node 3 \(an llm node\) needs model "default"/);
    expect(error.message).toContain('treeagent.config.json');
    expect(error.message).not.toContain('new TreeAgent');
  });
});

describe('treeagent export --json never drops a node silently', () => {
  test('a factory that leaves its llm node out without models: each node only one variant has is a warning', async () => {
    const source = writeTree(
      'factory.ts',
      `import { defineTree } from '@treeagent/core';
export default ({ models }) => defineTree({ name: 'factory', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  models.default
    ? { id: 40, type: 'llm', parent: 2, name: 'advice', chunks: ['advise me'], after: () => ({ nodeTarget: 41 }) }
    : { id: 42, type: 'emit', parent: 2, name: 'offline', chunks: ['advise me'], emit: { message: { type: 'static', content: 'offline' } } },
  { id: 41, type: 'emit', parent: 2, chunks: ['bye'], emit: { message: { type: 'static', content: 'bye', pattern: /x/ } } },
] });
`,
    );
    const out = capture();
    expect(await main(['export', source, '--json'], out)).toBe(0);
    const warnings = out.err.join('\n');
    expect(warnings).toMatch(
      /node 40 \(llm "advice"\): the tree factory builds it only when a model is configured, and none is, so the JSON does not hold it\. Configure the model/,
    );
    expect(warnings).toMatch(
      /node 42 \(emit "offline"\): the tree factory builds it only when no model is configured/,
    );
    expect(warnings).toMatch(/node 41, field emit\.message\.pattern: a RegExp is not plain data/);
    const document = JSON.parse(readFileSync(join(scratch, 'factory.json'), 'utf8')) as {
      nodes: { id: number }[];
    };
    expect(document.nodes.map((node) => node.id).sort((a, b) => a - b)).toEqual([1, 2, 41, 42]);
  });
});
