import type { TreeViewNode } from '../../../src/api-types';
import type { Turn } from './turn-model';

/** What the recorder needs of the tree: node names, to write expectations by name where a name is unique. */
export interface RecorderTree {
  nodes: ReadonlyMap<number, Pick<TreeViewNode, 'name'>>;
}

/** A YAML scalar: a double-quoted string (JSON's escapes are YAML's). */
const scalar = (value: string) => JSON.stringify(value);

/**
 * The chat's conversation as a YAML conversation test (`treeagent test`, docs/testing.md): one
 * `say` (or `option`) per turn, and as expectations what the agent did then — the node that
 * answered (by name when the name is unique in the tree, else by id), `status: no-match`, the last
 * message's text when it was static (a generated text differs from run to run: left out), its
 * options, and the error code of a failed turn.
 */
export function conversationTest(turns: readonly Turn[], tree: RecorderTree | null, name: string): string {
  const counts = new Map<string, number>();
  for (const node of tree?.nodes.values() ?? [])
    if (node.name) counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
  const nodeRef = (id: number) => {
    const nodeName = tree?.nodes.get(id)?.name;
    return nodeName && counts.get(nodeName) === 1 ? scalar(nodeName) : String(id);
  };
  const lines = [
    '# Recorded from the chat page: each turn expects what the agent answered when it was recorded.',
    '# Run it with: treeagent test <tree> <this file>',
    `name: ${scalar(name)}`,
    'turns:',
  ];
  for (const turn of turns) {
    const option = turn.user.selectedOption;
    lines.push(option ? `  - option: ${scalar(option)}` : `  - say: ${scalar(turn.user.text)}`);
    const expect: string[] = [];
    if (turn.error) {
      expect.push(`error: ${scalar(turn.error.code)}`);
    } else {
      const last = [...turn.messages].reverse().find((message) => message.message)?.message ?? null;
      const nodeId = turn.output?.nodeId ?? last?.nodeId ?? null;
      if (nodeId !== null) expect.push(`node: ${nodeRef(nodeId)}`);
      const status = turn.output?.status ?? (turn.noMatch ? 'no-match' : null);
      if (status && status !== 'answered') expect.push(`status: ${scalar(status)}`);
      if (last && last.type === 'static' && last.content)
        expect.push(`message: { equals: ${scalar(last.content)} }`);
      if (last?.options.length) expect.push(`options: [${last.options.map(scalar).join(', ')}]`);
    }
    if (expect.length) lines.push('    expect:', ...expect.map((line) => `      ${line}`));
  }
  return `${lines.join('\n')}\n`;
}
