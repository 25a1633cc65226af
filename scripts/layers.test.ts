import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dependencyTable,
  documentedTable,
  importCycles,
  importGraph,
  layerViolations,
  ruleCycles,
} from './layers.js';

const root = resolve(import.meta.dirname, '..');

describe('the layering rules (scripts/layers.ts)', () => {
  const edges = importGraph(root);

  it('hold for the repository: no violation, no import cycle, rules that form layers', () => {
    expect(layerViolations(edges)).toEqual([]);
    expect(importCycles(edges)).toEqual([]);
    expect(ruleCycles()).toEqual([]);
  });

  it('see type-only imports', () => {
    // session-store.ts imports only types (`import type`): the edges must still be there.
    expect(edges).toContainEqual({
      from: 'packages/core/src/session/session-store.ts',
      to: 'packages/core/src/protocol/history-entry.ts',
    });
  });

  it("are what docs/architecture.md's dependency table says", () => {
    const document = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
    expect(documentedTable(document)).toBe(dependencyTable());
  });

  it('reject tree/ importing engine/, a contract importing context/, and a deep import into another package', () => {
    const problems = layerViolations([
      { from: 'packages/core/src/tree/specials.ts', to: 'packages/core/src/engine/turn/turn.ts' },
      { from: 'packages/core/src/session/session-store.ts', to: 'packages/core/src/context/context.ts' },
      { from: 'packages/sqlite/src/index.ts', to: 'packages/core/src/engine/turn/turn.ts' },
      { from: 'packages/core/src/index.ts', to: 'packages/core/src/engine/turn/turn.ts' },
    ]);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/tree\/ may import only errors\/, filter\/, protocol\/, context\//);
    expect(problems[1]).toMatch(/session\/ may import only/);
    expect(problems[2]).toMatch(/is a contract.*import only protocol\/, errors\//);
    expect(problems[3]).toMatch(/inside another package/);
  });

  it("keep engine/'s three jobs in order: runtime below the turn, the turn below the agent", () => {
    const problems = layerViolations([
      // wrong direction: the runtime knows no turn, the turn knows no agent
      {
        from: 'packages/core/src/engine/runtime/load-runtime.ts',
        to: 'packages/core/src/engine/turn/turn.ts',
      },
      {
        from: 'packages/core/src/engine/turn/run-turn.ts',
        to: 'packages/core/src/engine/agent/tree-agent.ts',
      },
      {
        from: 'packages/core/src/engine/turn/execute/execute-node.ts',
        to: 'packages/core/src/engine/agent/route.ts',
      },
      // right direction
      {
        from: 'packages/core/src/engine/agent/tree-agent.ts',
        to: 'packages/core/src/engine/turn/run-turn.ts',
      },
      { from: 'packages/core/src/engine/turn/turn.ts', to: 'packages/core/src/engine/runtime/runtime.ts' },
      {
        from: 'packages/core/src/engine/turn/execute/execute-node.ts',
        to: 'packages/core/src/engine/turn/turn.ts',
      },
    ]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/engine\/runtime\/ may import only/);
    expect(problems[1]).toMatch(/engine\/turn\/ may import only/);
    expect(problems[2]).toMatch(/engine\/turn\/ may import only/);
    // A file left directly in engine/ belongs to no layer.
    expect(
      layerViolations([
        { from: 'packages/core/src/engine/stray.ts', to: 'packages/core/src/protocol/events.ts' },
      ]),
    ).toEqual([expect.stringMatching(/core folder engine\/ has no rule/)]);
  });

  it('find cycles made of type-only imports', () => {
    const cycles = importCycles([
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'a.ts' },
      { from: 'b.ts', to: 'c.ts' },
    ]);
    expect(cycles).toEqual([['a.ts', 'b.ts']]);
  });
});
