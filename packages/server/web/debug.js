/** The debug view of one turn: path, explore decisions, steps, callbacks, model calls, state, timings. */
import { clear, formatMs, formatSimilarity, h, jsonBlock } from './dom.js';

/** Why exploration did what it did (the engine's `ExploreAction`). */
const ACTIONS = {
  descend: { label: 'descend', why: 'best chunk above the threshold: move to the child that holds it' },
  'below-threshold': { label: 'stop', why: 'no chunk above the threshold: exploration stops here' },
  leaf: { label: 'stop · leaf', why: 'the node has no children: exploration stops here' },
  blocking: { label: 'stop · blocking', why: 'a blocking node was reached: exploration stops here' },
  'leaf-climb': {
    label: 'climb',
    why: 'a leaf that was just executed: climb to the nearest anchor (fail counter +1)',
  },
  climb: {
    label: 'climb',
    why: 'nothing above the threshold on the node just executed: blacklist it and climb to its anchor (fail counter +1)',
  },
};

const STOPS = new Set(['below-threshold', 'leaf', 'blocking']);

/** The events of a turn, without text deltas: the trace when the server sent it, else what streamed. */
export function turnTrace(turn) {
  const trace = turn.output?.trace;
  if (Array.isArray(trace)) return trace;
  return turn.events.filter((event) => event.type !== 'text-delta' && event.type !== 'turn-end');
}

/** Node ids of the turn's path, in order of first visit: explored, then executed. */
export function turnPath(turn) {
  const path = [];
  const add = (id) => {
    if (typeof id === 'number' && !path.includes(id)) path.push(id);
  };
  for (const event of turnTrace(turn)) {
    if (event.type === 'explore-decision') {
      add(event.nodeId);
      add(event.nextNodeId);
    } else if (event.type === 'step-start') add(event.nodeId);
  }
  return path;
}

/**
 * Renders the debug view of `turn` into `container`.
 * @param {HTMLElement} container
 * @param {import('./chat.js').TurnView} turn
 * @param {{ nodeLabel: (id: number) => string, onNode: (id: number) => void }} context
 */
export function renderTurnDebug(container, turn, context) {
  clear(container);
  const trace = turnTrace(turn);
  const nodeButton = (id) =>
    id === null || id === undefined
      ? h('span', { class: 'muted', text: '—' })
      : h('button', {
          type: 'button',
          class: 'node-ref',
          text: context.nodeLabel(id),
          title: `Show node ${id} in the tree`,
          onclick: () => context.onNode(id),
        });

  container.append(summary(turn, trace, nodeButton));
  if (!trace.length) {
    container.append(
      h('p', {
        class: 'empty-note',
        text: turn.error
          ? 'The turn failed before the server sent any debug event.'
          : 'No trace for this turn: the server sends it only in debug mode.',
      }),
    );
    return;
  }
  container.append(
    section('Path', 'path', pathSection(trace, nodeButton)),
    section('Steps and timings', 'steps', stepsSection(trace, turn, nodeButton)),
    section('Callbacks', 'callbacks', callbacksSection(trace, nodeButton)),
    section('Model calls', 'models', modelsSection(trace, nodeButton)),
    section('Session state', 'state', stateSection(turn)),
    section('serverMetadata', 'metadata', metadataSection(turn)),
    section('All events', 'events', eventsSection(trace), { open: false }),
  );
}

function section(title, name, content, { open = true } = {}) {
  return h(
    'details',
    { class: 'debug-section', open, dataset: { section: name } },
    h('summary', {}, h('h3', { text: title })),
    h('div', { class: 'debug-section-body' }, content),
  );
}

function summary(turn, trace, nodeButton) {
  const output = turn.output;
  const status = turn.error ? 'error' : (output?.status ?? 'running');
  const extended = trace.find((event) => event.type === 'message-extended');
  const fail = trace.filter((event) => event.type === 'fail-counter').at(-1);
  const reset = trace.find((event) => event.type === 'session-reset');
  const fallbacks = trace.filter((event) => event.type === 'fallback');
  const rows = [
    ['Status', h('span', { class: ['status-badge', `status-${status}`], text: status })],
    ['Duration', formatMs(turn.durationMs ?? Number.NaN)],
    ['Work', workSummary(trace)],
    ['Ended at', nodeButton(output?.nodeId ?? null)],
    [
      'Message',
      h(
        'span',
        {},
        h('q', { text: turn.userText || turn.selectedOption || '' }),
        turn.selectedOption ? h('span', { class: 'muted', text: ' (selected option)' }) : null,
      ),
    ],
  ];
  if (extended && extended.extended !== extended.original) {
    rows.push(['Extended', h('q', { class: 'extended', text: extended.extended })]);
  }
  if (fail) rows.push(['Fail counter', `${fail.value} (${fail.reason} at node ${fail.nodeId})`]);
  if (reset) rows.push(['Session reset', `${reset.reason} (node ${reset.lostNodeId} is gone)`]);
  for (const fallback of fallbacks) {
    rows.push([
      'Fallback',
      h('span', {}, `${fallback.error.code}: ${fallback.error.message} → `, nodeButton(fallback.nodeTarget)),
    ]);
  }
  if (turn.error) rows.push(['Error', `${turn.error.code}: ${turn.error.message}`]);
  return h(
    'div',
    { class: 'debug-summary' },
    h('h2', { class: 'debug-title', text: `Turn ${turn.number}` }),
    h(
      'dl',
      { class: 'kv' },
      rows.map(([key, value]) => [h('dt', { text: key }), h('dd', {}, value)]),
    ),
  );
}

function workSummary(trace) {
  const count = (type) => trace.filter((event) => event.type === type).length;
  const models = trace.filter((event) => event.type === 'model-call');
  const modelMs = models.reduce((sum, event) => sum + event.durationMs, 0);
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    plural(count('explore-decision'), 'decision'),
    plural(count('step-end'), 'step'),
    plural(count('callback-end'), 'callback'),
    `${plural(models.length, 'model call')}${models.length ? ` (${formatMs(modelMs)})` : ''}`,
  ].join(' · ');
}

/** Explore runs (decisions up to `explore-end`), with the other routing events between them. */
function pathSection(trace, nodeButton) {
  const list = h('ol', { class: 'path' });
  let decisions = 0;
  for (const event of trace) {
    switch (event.type) {
      case 'explore-decision':
        decisions++;
        list.append(decisionItem(event, nodeButton));
        break;
      case 'explore-end':
        list.append(
          h(
            'li',
            { class: ['path-item', 'path-end'] },
            h('span', { class: 'path-marker', 'aria-hidden': 'true' }),
            h(
              'div',
              {},
              h('span', { class: 'path-verb', text: 'Explore stopped at ' }),
              nodeButton(event.nodeId),
              h('div', { class: 'path-detail' }, 'direction: ', h('q', { text: event.direction })),
            ),
          ),
        );
        break;
      case 'after-output':
        list.append(
          note(
            h('span', {}, 'after of ', nodeButton(event.nodeId), `: outcome ${event.outcome}`),
            event.nodeTarget !== null
              ? h(
                  'span',
                  {},
                  ` → ${event.step} of `,
                  nodeButton(event.nodeTarget),
                  event.resume ? ' (resume)' : '',
                )
              : null,
            event.outcome === 'failure' ? 'warn' : undefined,
          ),
        );
        break;
      case 'fail-counter':
        list.append(
          note(`fail counter → ${event.value} (${event.reason} at node ${event.nodeId})`, null, 'warn'),
        );
        break;
      case 'blacklist-add':
        list.append(
          note(`blacklisted ${event.kind}s ${event.ids.join(', ')}: ${event.reason}`, null, 'warn'),
        );
        break;
      case 'fallback':
        list.append(
          note(
            `fallback of agent ${event.agentId} (${event.error.code})`,
            h('span', {}, ' → ', nodeButton(event.nodeTarget)),
            'warn',
          ),
        );
        break;
      case 'no-match':
        list.append(note(`no match in agent ${event.agentId}`, null, 'warn'));
        break;
      case 'session-reset':
        list.append(note(`session reset: ${event.reason}`, null, 'warn'));
        break;
      default:
        break;
    }
  }
  if (!decisions) {
    list.prepend(
      h('li', { class: ['path-item', 'path-note'] }, 'No exploration this turn (a callback chose the node).'),
    );
  }
  return list;
}

function note(text, extra, tone) {
  return h(
    'li',
    { class: ['path-item', 'path-note', tone && `tone-${tone}`] },
    h('span', { class: 'path-marker', 'aria-hidden': 'true' }),
    h('div', {}, text, extra),
  );
}

function decisionItem(event, nodeButton) {
  const action = ACTIONS[event.action] ?? { label: event.action, why: '' };
  const best = event.best;
  const threshold = event.threshold;
  const above = best && threshold !== null ? best.similarity > threshold : null;
  const why =
    !best && event.action === 'below-threshold'
      ? 'no chunk in its subtree to compare: exploration stops here'
      : action.why;
  const meter = best && threshold !== null ? similarityMeter(best.similarity, threshold) : null;
  return h(
    'li',
    {
      class: ['path-item', 'decision', `action-${event.action}`, STOPS.has(event.action) && 'is-stop'],
      dataset: { nodeId: String(event.nodeId), action: event.action },
    },
    h('span', { class: 'path-marker', 'aria-hidden': 'true' }),
    h(
      'div',
      { class: 'decision-body' },
      h(
        'div',
        { class: 'decision-head' },
        nodeButton(event.nodeId),
        h('span', { class: ['action-badge', `badge-${event.action}`], text: action.label }),
        event.nextNodeId !== event.nodeId ? h('span', { class: 'arrow', text: '→' }) : null,
        event.nextNodeId !== event.nodeId ? nodeButton(event.nextNodeId) : null,
      ),
      best
        ? h(
            'div',
            { class: 'decision-chunk' },
            h('span', { class: 'chunk-label', text: 'best chunk' }),
            h('q', { class: 'chunk-text', text: best.text }),
            h('span', { class: 'muted', text: ` on node ${best.nodeId}` }),
          )
        : null,
      meter
        ? h(
            'div',
            { class: 'decision-score' },
            meter,
            h(
              'span',
              { class: ['score-text', above ? 'is-above' : 'is-below'] },
              `${formatSimilarity(best.similarity)} ${above ? '>' : '≤'} ${formatSimilarity(threshold)}`,
            ),
            h('span', { class: 'muted', text: 'similarity vs threshold' }),
          )
        : null,
      h('p', { class: 'decision-why', text: why }),
    ),
  );
}

/** A bar for the similarity with a tick at the threshold. */
function similarityMeter(similarity, threshold) {
  const clamp = (value) => Math.max(0, Math.min(1, value));
  const bar = h('span', {
    class: ['meter', similarity > threshold ? 'is-above' : 'is-below'],
    role: 'img',
    'aria-label': `similarity ${formatSimilarity(similarity)}, threshold ${formatSimilarity(threshold)}`,
  });
  bar.append(h('span', { class: 'meter-fill' }), h('span', { class: 'meter-threshold' }));
  bar.style.setProperty('--value', `${clamp(similarity) * 100}%`);
  bar.style.setProperty('--threshold', `${clamp(threshold) * 100}%`);
  return bar;
}

function stepsSection(trace, turn, nodeButton) {
  const starts = [];
  const rows = [];
  for (const event of trace) {
    if (event.type === 'step-start') starts.push(event);
    if (event.type === 'step-end') rows.push(event);
  }
  const total = turn.durationMs ?? rows.reduce((sum, row) => sum + row.durationMs, 0);
  const byStep = {};
  for (const row of rows) byStep[row.step] = (byStep[row.step] ?? 0) + row.durationMs;
  const models = trace.filter((event) => event.type === 'model-call');
  const modelTotal = models.reduce((sum, event) => sum + event.durationMs, 0);
  const totals = h(
    'dl',
    { class: ['kv', 'kv-inline', 'timings'] },
    h('dt', { text: 'Turn' }),
    h('dd', { text: formatMs(total) }),
    ...Object.entries(byStep).flatMap(([step, ms]) => [
      h('dt', { text: step }),
      h('dd', { text: formatMs(ms) }),
    ]),
    h('dt', { text: 'model calls' }),
    h('dd', { text: `${models.length} · ${formatMs(modelTotal)}` }),
  );
  if (!rows.length) return h('div', {}, totals, h('p', { class: 'empty-note', text: 'No step ran.' }));
  const table = h(
    'table',
    { class: 'data-table steps-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { text: 'Node' }),
        h('th', { text: 'Step' }),
        h('th', { class: 'num', text: 'Duration' }),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          { dataset: { step: row.step } },
          h('td', {}, nodeButton(row.nodeId)),
          h('td', {}, h('span', { class: ['step-badge', `step-${row.step}`], text: row.step })),
          h(
            'td',
            { class: 'num' },
            h(
              'span',
              { class: 'duration-bar' },
              h('span', {
                class: 'duration-fill',
                style: `width:${total > 0 ? Math.max(2, Math.min(100, (row.durationMs / total) * 100)) : 0}%`,
              }),
            ),
            formatMs(row.durationMs),
          ),
        ),
      ),
    ),
  );
  return h('div', {}, totals, table);
}

function callbacksSection(trace, nodeButton) {
  const ends = trace.filter((event) => event.type === 'callback-end');
  const open = trace.filter((event) => event.type === 'callback-start').length - ends.length;
  if (!ends.length) return h('p', { class: 'empty-note', text: 'No callback ran.' });
  return h(
    'div',
    {},
    h(
      'table',
      { class: 'data-table callbacks-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: 'Node' }),
          h('th', { text: 'Callback' }),
          h('th', { class: 'num', text: 'Duration' }),
          h('th', { text: 'Output' }),
        ),
      ),
      h(
        'tbody',
        {},
        ends.map((event) =>
          h(
            'tr',
            {},
            h('td', {}, nodeButton(event.nodeId)),
            h('td', {}, h('code', { text: event.callback })),
            h('td', { class: 'num', text: formatMs(event.durationMs) }),
            h(
              'td',
              {},
              event.output === undefined
                ? h('span', { class: 'muted', text: '—' })
                : h(
                    'details',
                    { class: 'inline-json' },
                    h('summary', { text: 'output' }),
                    jsonBlock(event.output),
                  ),
            ),
          ),
        ),
      ),
    ),
    open > 0 ? h('p', { class: 'empty-note', text: `${open} callback(s) did not finish.` }) : null,
  );
}

function modelsSection(trace, nodeButton) {
  const calls = trace.filter((event) => event.type === 'model-call');
  const dropped = trace.filter((event) => event.type === 'model-param-dropped');
  if (!calls.length) return h('p', { class: 'empty-note', text: 'No model was called.' });
  return h(
    'div',
    {},
    h(
      'table',
      { class: 'data-table models-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: 'Node' }),
          h('th', { text: 'Model' }),
          h('th', { text: 'Purpose' }),
          h('th', { class: 'num', text: 'Attempt' }),
          h('th', { class: 'num', text: 'Duration' }),
        ),
      ),
      h(
        'tbody',
        {},
        calls.map((event) =>
          h(
            'tr',
            {},
            h('td', {}, nodeButton(event.nodeId)),
            h('td', {}, h('code', { text: event.modelId })),
            h('td', { text: event.purpose }),
            h('td', { class: 'num', text: String(event.attempt) }),
            h('td', { class: 'num', text: formatMs(event.durationMs) }),
          ),
        ),
      ),
    ),
    dropped.length
      ? h(
          'p',
          { class: 'empty-note' },
          `Parameters dropped: ${dropped.map((event) => `${event.param} (${event.modelId})`).join(', ')}`,
        )
      : null,
  );
}

function stateSection(turn) {
  const metadata = turn.output?.serverMetadata;
  if (metadata && Object.hasOwn(metadata, 'sessionState')) {
    return h(
      'div',
      {},
      h('p', {
        class: 'source-note',
        text: 'From serverMetadata.sessionState: the state the tree put there at the end of the turn.',
      }),
      jsonBlock(metadata.sessionState, 'Session state'),
    );
  }
  return h(
    'div',
    { class: 'empty-note' },
    h('p', {
      text: 'Not available: the session state stays on the server. To see it here, copy it into serverMetadata in the root’s afterRun:',
    }),
    h('pre', {
      class: 'code',
      text: 'context.metadata.serverMetadata.sessionState = context.sessionState.serialize();',
    }),
  );
}

function metadataSection(turn) {
  const metadata = turn.output?.serverMetadata;
  if (!metadata) return h('p', { class: 'empty-note', text: 'No output for this turn.' });
  if (!Object.keys(metadata).length) return h('p', { class: 'empty-note', text: 'Empty: {}' });
  return jsonBlock(metadata, 'serverMetadata');
}

function eventsSection(trace) {
  return h(
    'ol',
    { class: 'event-list' },
    trace.map((event) => {
      const { type, ...rest } = event;
      return h(
        'li',
        {},
        h('details', {}, h('summary', {}, h('code', { text: type }), eventHint(event)), jsonBlock(rest)),
      );
    }),
  );
}

function eventHint(event) {
  const hint =
    'nodeId' in event
      ? ` node ${event.nodeId}${'step' in event ? ` · ${event.step}` : ''}${'callback' in event ? ` · ${event.callback}` : ''}`
      : '';
  const duration = typeof event.durationMs === 'number' ? ` · ${formatMs(event.durationMs)}` : '';
  return h('span', { class: 'muted', text: hint + duration });
}
