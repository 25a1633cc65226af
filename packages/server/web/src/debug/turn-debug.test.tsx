// @vitest-environment happy-dom
import { HashedEmbedder, TreeAgent } from '@treeagent/core';
import type { SpaceFitter } from '@treeagent/core/adapter';
import { ScriptedLanguageModel } from '@treeagent/core/test';
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import { bikeShopTree, ids } from '../../../../../examples/src/bike-shop/tree';
import { describeTree } from '../../../src/tree/tree-view';
import { applyEvent, startTurn } from '../chat/turn-model';
import { renderInApp, texts } from '../test-support/render';
import { TurnDebug } from './turn-debug';
import { eventsOf, pathOf } from './turn-trace';

/**
 * The debug view renders the trace of a real turn of the bike shop (the engine's own events, not a
 * hand-written copy), so a change of the events that the view does not follow fails here.
 */
async function realTurn() {
  const tree = bikeShopTree();
  const agent = new TreeAgent({ tree });
  await agent.send('debug-view', 'ciao');
  const output = await agent.send('debug-view', 'quanto costa la spedizione?');
  const turn = applyEvent(
    startTurn(2, { text: 'quanto costa la spedizione?', selectedOption: null, attachments: [] }, null, 0),
    { type: 'turn-end', output, durationMs: 42 },
    42,
  );
  return { turn, view: describeTree(tree, { chunks: true }) };
}

describe('TurnDebug (a real turn of the bike shop)', () => {
  it('shows the status, each explore decision with its similarity against the threshold, and where exploration stopped', async () => {
    const { turn, view } = await realTurn();
    const trace = turn.output!.trace!;
    const root = await renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, { tree: view });

    expect(root.querySelector('.debug-title')?.textContent).toBe('Turn 2');
    expect(root.querySelector('.status-badge')?.textContent).toBe('answered');
    const decisions = eventsOf(trace, 'explore-decision');
    expect(decisions.length).toBeGreaterThan(1);
    expect(root.querySelectorAll('.decision')).toHaveLength(decisions.length);
    const scored = decisions.filter((decision) => decision.best && decision.threshold !== null);
    expect(scored.length).toBeGreaterThan(0);
    expect(texts(root, '.score-text')).toEqual(
      scored.map(
        (decision) =>
          `${decision.best!.similarity.toFixed(3)} ${decision.best!.similarity > decision.threshold! ? '>' : '≤'} ${decision.threshold!.toFixed(3)}`,
      ),
    );
    const end = eventsOf(trace, 'explore-end')[0]!;
    expect(root.querySelector('.path-end')?.textContent).toContain(
      `Explore stopped at ${view.nodes.find((node) => node.id === end.nodeId)?.name} #${end.nodeId}`,
    );
  });

  it('lists every callback and step the engine reported, and every event under "All events"', async () => {
    const { turn, view } = await realTurn();
    const trace = turn.output!.trace!;
    const root = await renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, { tree: view });
    expect(texts(root, '.callbacks-table tbody td:nth-child(2)')).toEqual(
      eventsOf(trace, 'callback-end').map((event) => event.callback),
    );
    expect(root.querySelectorAll('.steps-table tbody tr')).toHaveLength(eventsOf(trace, 'step-end').length);
    expect(texts(root, '.event-list > li summary code')).toEqual(trace.map((event) => event.type));
    expect(root.querySelector('[data-section="models"]')?.textContent).toContain('No model was called.');
  });

  it('says when the turn routed in the space fitted to the tree at load', async () => {
    const tree = bikeShopTree();
    // A scripted fitter (a mock; @treeagent/fit's tests run the real one): its "fitted space" is a
    // hashed embedder of another size, told apart by its id.
    const fitted = new HashedEmbedder({ dimensions: 2048 });
    const fitter: SpaceFitter = {
      id: 'scripted',
      cached: async () => ({ embedder: fitted, cached: true, fitMilliseconds: 1 }),
      fit: async () => ({ embedder: fitted, cached: false, fitMilliseconds: 1 }),
    };
    const agent = new TreeAgent({ tree, fit: true, spaceFitter: fitter });
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted' });
    const output = await agent.send('debug-fitted', 'quanto costa la spedizione?');
    const turn = applyEvent(
      startTurn(1, { text: 'quanto costa la spedizione?', selectedOption: null, attachments: [] }, null, 0),
      { type: 'turn-end', output, durationMs: 42 },
      42,
    );
    const root = await renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, {
      tree: describeTree(tree, { chunks: true }),
    });
    expect(root.textContent).toContain(
      `routing in the embedding space fitted to the tree at load (${fitted.id}); thresholds calibrated in it`,
    );
    const unfitted = await realTurn();
    const plain = await renderInApp(<TurnDebug turn={unfitted.turn} onNode={() => {}} />, {
      tree: unfitted.view,
    });
    expect(plain.textContent).not.toContain('fitted to the tree');
  });

  it('a node of the path calls onNode with its id; the path is the nodes explored then executed', async () => {
    const { turn, view } = await realTurn();
    const chosen: number[] = [];
    const root = await renderInApp(<TurnDebug turn={turn} onNode={(id) => chosen.push(id)} />, {
      tree: view,
    });
    const button = root.querySelector<HTMLButtonElement>('.path-end .node-ref')!;
    await act(() => button.click());
    const end = eventsOf(turn.output!.trace!, 'explore-end')[0]!;
    expect(chosen).toEqual([end.nodeId]);
    expect(pathOf(turn.output!.trace!)).toContain(end.nodeId);
  });

  it('shows the tool calls of the generative order-status answer: tool, step, arguments, result', async () => {
    // A scripted model (a mock): it calls orderStatus, once with a bad number, then answers.
    const model = new ScriptedLanguageModel({
      answers: (request) => {
        if (!request.tools) return 'stato ordine';
        const tools = request.messages.filter((message) => message.role === 'tool').length;
        if (tools === 0) return { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12' } }] };
        if (tools === 1) return { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] };
        return 'In viaggio con BRT.';
      },
    });
    const tree = bikeShopTree({ generative: true });
    const agent = new TreeAgent({ tree, models: model });
    await agent.send('debug-tools', "dov'è il mio ordine?");
    const output = await agent.send('debug-tools', '12345');
    const turn = applyEvent(
      startTurn(2, { text: '12345', selectedOption: null, attachments: [] }, null, 0),
      { type: 'turn-end', output, durationMs: 42 },
      42,
    );
    const root = await renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, {
      tree: describeTree(tree, { chunks: true }),
    });
    const rows = [...root.querySelectorAll<HTMLElement>('.tools-table tbody tr')];
    expect(rows.map((row) => [row.dataset.tool, row.dataset.outcome])).toEqual([
      ['orderStatus', 'INVALID_TOOL_INPUT'],
      ['orderStatus', 'ok'],
    ]);
    expect(texts(root, '.tools-table tbody td:nth-child(3)')).toEqual(['1', '2']);
    expect(rows[1]!.textContent).toContain('"12345"');
    expect(rows[1]!.textContent).toContain('BRT');
    expect(root.querySelector('.tools-table .node-ref')?.textContent).toContain(String(ids.orderStatus));
    expect(root.querySelector('.debug-summary')?.textContent).toContain('2 tool calls');
  });
});

describe('TurnDebug: the Form section (the repair booking of the bike shop)', () => {
  async function formTurn(messages: string[]) {
    const tree = bikeShopTree({ now: () => new Date('2026-12-01T09:00:00Z') });
    const agent = new TreeAgent({ tree });
    let output = await agent.send('form-debug', messages[0]!);
    for (const message of messages.slice(1)) output = await agent.send('form-debug', message);
    const text = messages.at(-1)!;
    const turn = applyEvent(
      startTurn(messages.length, { text, selectedOption: null, attachments: [] }, null, 0),
      { type: 'turn-end', output, durationMs: 12 },
      12,
    );
    return renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, {
      tree: describeTree(tree, { chunks: true }),
    });
  }

  it('shows every slot with its value, parser and source text, and what this message gave', async () => {
    const root = await formTurn(['vorrei prenotare una riparazione per la mia mtb domani alle 10']);
    const section = root.querySelector('[data-section="form"]')!;
    expect(section.querySelector('[data-form="riparazione"] .status-badge')?.textContent).toBe('collecting');
    const rows = [...section.querySelectorAll('.form-slots-table tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['bike', 'enum', 'mountain bike', 'enum', 'mtb'],
      ['problem', 'text', '—', '—', '—'],
      ['date', 'date', 'mercoledì 2 dicembre 2026', 'date:relative', 'domani'],
      ['time', 'time', '10:00', 'time', 'alle 10'],
      ['phone', 'phone', '—', '—', '—'],
    ]);
    expect(section.querySelector('.form-slot-awaited code')?.textContent).toBe('problem');
    expect(texts(root, '.form-extracted')).toEqual([
      'date = 2026-12-02 by date:relative from domani',
      'time = 10:00 by time from alle 10',
      'bike = mountain bike by enum from mtb',
    ]);
  });

  it('marks corrections and refused values with the reason', async () => {
    const root = await formTurn([
      'vorrei prenotare una riparazione per la mia mtb domani alle 10, il cambio non va',
      'anzi è una city bike, chiamatemi al 333 12',
    ]);
    expect(texts(root, '.form-extracted')).toEqual(['bike = city bike by enum from city bike (correction)']);
    expect(texts(root, '.form-refused')).toEqual(['phone refused: invalid-phone (333 12)']);
  });

  it('has no Form section for a turn without a form', async () => {
    const { turn, view } = await realTurn();
    const root = await renderInApp(<TurnDebug turn={turn} onNode={() => {}} />, { tree: view });
    expect(root.querySelector('[data-section="form"]')).toBeNull();
  });
});
