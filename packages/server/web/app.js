/** The chat page of @treeagent/server: wires the API, the conversation, the debug view and the tree. */
import { Api, ApiError } from './api.js';
import { Chat } from './chat.js';
import { renderTurnDebug, turnPath } from './debug.js';
import { clear, formatBytes, h, icon } from './dom.js';
import { TreeView } from './tree.js';

const $ = (id) => document.getElementById(id);

/** The events a server sends outside debug mode; any other one means debug mode is on. */
const USER_FACING = new Set([
  'turn-start',
  'message-start',
  'text-delta',
  'message',
  'no-match',
  'error',
  'turn-end',
]);
/** Errors worth a Retry button (the turn saved nothing, the same message may work now). */
const RETRYABLE = new Set([
  'NETWORK',
  'ABORTED',
  'SESSION_CONFLICT',
  'RATE_LIMITED',
  'SHUTTING_DOWN',
  'SESSION_STORE',
  'INCOMPLETE',
]);
const SESSION_LOST = new Set(['NOT_FOUND', 'FORBIDDEN']);

const api = new Api();
const state = {
  debug: false,
  busy: false,
  /** @type {AbortController | null} */
  controller: null,
  /** Files chosen for the next message: `{ id, file, status, metadata?, error?, element }`. */
  pending: [],
  /** @type {'debug' | 'tree' | null} */
  side: null,
  inspected: null,
};

const elements = {
  log: $('log'),
  input: $('message-input'),
  composer: $('composer'),
  hint: $('composer-hint'),
  send: $('send-button'),
  stop: $('stop-button'),
  fileInput: $('file-input'),
  pending: $('pending-files'),
  side: $('side'),
  turnSelect: $('turn-select'),
  debugContent: $('debug-content'),
};
/** The hint under the message box, restored after temporary hints. */
const DEFAULT_HINT = [...elements.hint.childNodes].map((node) => node.cloneNode(true));

const treeView = new TreeView({
  container: $('tree-container'),
  details: $('node-details'),
  header: $('tree-header'),
});
const nodeLabel = (id) => (treeView.nodes.size ? treeView.nodeLabel(id) : `#${id}`);

const chat = new Chat({
  log: elements.log,
  api,
  nodeLabel,
  debug: () => state.debug,
  onOption: (option, button) => {
    if (state.busy) return;
    button.classList.add('is-selected');
    void send({ text: option, selectedOption: option });
  },
  onInspect: (turn) => {
    openSide('debug');
    showTurnDebug(turn);
    $('tab-debug').focus();
  },
});

// ---------------------------------------------------------------- setup

function setDebug(on) {
  if (state.debug === on) return;
  state.debug = on;
  document.body.classList.toggle('is-debug', on);
  $('debug-badge').hidden = !on;
  $('toggle-debug').hidden = !on;
  $('tab-debug').hidden = !on;
  $('route-form').hidden = !on;
  $('empty-debug').hidden = !on;
  for (const turn of chat.turns) if (turn.output || turn.error) turn.addMeta({ restored: turn.restored });
}

async function withApiKey(run) {
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || error.message.includes('X-Session-Token'))
        throw error;
      const key = await askApiKey(api.apiKey ? 'The API key was refused: enter another one.' : null);
      if (!key) throw error;
    }
  }
}

function askApiKey(message) {
  const dialog = $('api-key-dialog');
  const input = $('api-key-input');
  $('api-key-button').hidden = false;
  input.value = '';
  const note = dialog.querySelector('.dialog-error') ?? h('p', { class: 'dialog-error', role: 'alert' });
  note.textContent = message ?? '';
  note.hidden = !message;
  dialog.querySelector('h2').after(note);
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue === 'save' && input.value.trim()) {
          api.setApiKey(input.value.trim());
          resolve(api.apiKey);
        } else resolve(null);
      },
      { once: true },
    );
    dialog.showModal();
    input.focus();
  });
}

async function loadTree() {
  try {
    const tree = await withApiKey(() => api.tree());
    treeView.setTree(tree);
    setDebug(treeView.debug);
    const name = $('tree-name');
    name.textContent = tree.name;
    name.hidden = false;
    $('empty-title').textContent = `Talk to ${tree.name}`;
    document.title = `${tree.name} · Tree Agent`;
  } catch (error) {
    clear($('tree-container')).append(
      h('p', { class: 'empty-note', text: `The tree could not be loaded: ${error.message}` }),
    );
  }
}

async function startSession({ fresh = false } = {}) {
  if (!fresh && api.session) {
    try {
      const history = await withApiKey(() => api.history());
      chat.reset();
      chat.restore(history);
      const lastNode = history.filter((entry) => entry.role === 'assistant').at(-1)?.nodeId ?? null;
      treeView.highlight({ path: [], current: lastNode });
      afterSessionChange();
      return;
    } catch {
      api.forgetSession();
    }
  }
  try {
    await withApiKey(() => api.createSession());
    chat.reset();
    treeView.highlight({});
    afterSessionChange();
  } catch (error) {
    systemError(error, () => startSession({ fresh: true }));
  }
}

function afterSessionChange() {
  const label = $('session-label');
  const id = api.session?.sessionId ?? '';
  label.textContent = id ? `session ${id.slice(0, 8)}` : '';
  label.title = id ? `Session ${id}` : '';
  state.inspected = null;
  clear(elements.debugContent).append(
    h('p', { class: 'empty-note', text: 'Send a message: the debug view of each turn appears here.' }),
  );
  updateTurnSelect();
  updateEmpty();
  setHint(chat.turns.at(-1)?.waitsForUser ?? false);
}

/** An error outside any turn (creating the session failed…), with a retry. */
function systemError(error, retry) {
  const actions = h('div', { class: 'notice-actions' });
  const notice = h(
    'div',
    { class: ['notice', 'notice--error', 'notice--system'], role: 'alert' },
    icon('error'),
    h(
      'div',
      { class: 'notice-text' },
      h(
        'p',
        { class: 'notice-title' },
        'Error ',
        h('code', { class: 'error-code', text: error.code ?? 'ERROR' }),
      ),
      h('p', { class: 'error-message', text: error.message }),
      actions,
    ),
  );
  actions.append(
    h('button', {
      type: 'button',
      class: 'ghost-button',
      text: 'Retry',
      onclick: () => {
        notice.remove();
        void retry();
      },
    }),
  );
  elements.log.append(notice);
  updateEmpty();
}

function updateEmpty() {
  $('empty-state').hidden = elements.log.children.length > 0;
}

// ---------------------------------------------------------------- sending

async function send({ text, selectedOption }) {
  if (state.busy) return;
  if (state.pending.some((entry) => entry.status === 'uploading')) {
    flashHint('Wait for the files to finish uploading.');
    return;
  }
  const message = text.trim();
  const attachments = state.pending.filter((entry) => entry.metadata).map((entry) => entry.metadata);
  if (!message && !selectedOption) {
    flashHint(attachments.length ? 'Add a message to send with the files.' : 'Write a message first.');
    elements.input.focus();
    return;
  }
  if (!api.session) await startSession({ fresh: true });
  if (!api.session) return;
  const body = {
    message: text,
    ...(selectedOption ? { selectedOption } : {}),
    ...(attachments.length ? { attachments: attachments.map((file) => file.id) } : {}),
  };
  clearPending();
  elements.input.value = '';
  autosize();
  await runTurn(body, { text, selectedOption, attachments });
}

async function runTurn(body, shown) {
  chat.disableOptions();
  const turn = chat.startTurn(shown);
  updateEmpty();
  setBusy(true);
  const controller = new AbortController();
  state.controller = controller;
  elements.log.setAttribute('aria-busy', 'true');
  try {
    for await (const event of api.send(body, controller.signal)) {
      if (!state.debug && !USER_FACING.has(event.type)) setDebug(true);
      if (event.type === 'turn-end' && Array.isArray(event.output?.trace)) setDebug(true);
      turn.handle(event);
    }
    if (!turn.output && !turn.error) {
      turn.showError({
        code: 'INCOMPLETE',
        message: 'The stream ended before the turn did. Nothing was saved.',
      });
    }
  } catch (error) {
    if (error?.name === 'AbortError') {
      turn.showError({ code: 'ABORTED', message: 'You stopped the turn: the agent saved nothing of it.' });
    } else
      turn.showError(
        error instanceof ApiError ? error : { code: 'CLIENT', message: String(error?.message ?? error) },
      );
  } finally {
    state.controller = null;
    elements.log.removeAttribute('aria-busy');
    setBusy(false);
  }
  afterTurn(turn, body, shown);
}

function afterTurn(turn, body, shown) {
  if (turn.error) {
    if (RETRYABLE.has(turn.error.code)) {
      turn.errorActions.append(
        h('button', {
          type: 'button',
          class: 'ghost-button',
          text: 'Retry',
          onclick: () => void runTurn(body, shown),
        }),
      );
    }
    if (SESSION_LOST.has(turn.error.code) || turn.error.status === 401) {
      turn.errorActions.append(
        h('button', {
          type: 'button',
          class: 'ghost-button',
          text: 'New chat',
          onclick: () => void newChat(),
        }),
      );
    }
  }
  if (turn.output) highlightTurn(turn);
  updateTurnSelect();
  if (state.side === 'debug' && state.debug) showTurnDebug(turn);
  const waiting = turn.waitsForUser;
  setHint(waiting);
  const focusInSide = elements.side.contains(document.activeElement);
  if (waiting || !focusInSide) elements.input.focus({ preventScroll: true });
}

function setBusy(busy) {
  state.busy = busy;
  elements.send.hidden = busy;
  elements.stop.hidden = !busy;
  elements.composer.classList.toggle('is-busy', busy);
}

function setHint(waiting) {
  elements.composer.classList.toggle('is-waiting', waiting);
  if (waiting) {
    elements.hint.replaceChildren(
      h('span', { class: 'waiting-dot', 'aria-hidden': 'true' }),
      'The agent is waiting for your answer.',
    );
    elements.input.placeholder = 'Your answer…';
  } else {
    elements.hint.replaceChildren(...DEFAULT_HINT.map((node) => node.cloneNode(true)));
    elements.input.placeholder = 'Write a message…';
  }
}

let hintTimer = null;
function flashHint(text) {
  const waiting = elements.composer.classList.contains('is-waiting');
  elements.hint.replaceChildren(h('span', { class: 'hint-alert', text }));
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => setHint(waiting), 3000);
}

async function newChat() {
  state.controller?.abort();
  clearPending();
  await startSession({ fresh: true });
  elements.input.focus();
}

// ---------------------------------------------------------------- files

async function addFiles(files) {
  if (!files.length) return;
  if (!api.session) await startSession({ fresh: true });
  for (const file of files) {
    const entry = {
      id: crypto.randomUUID(),
      file,
      status: 'uploading',
      metadata: null,
      error: null,
      element: null,
    };
    state.pending.push(entry);
    renderPending(entry);
    api
      .upload(file)
      .then((metadata) => {
        entry.metadata = metadata;
        entry.status = 'ready';
      })
      .catch((error) => {
        entry.status = 'failed';
        entry.error = error;
      })
      .finally(() => renderPending(entry));
  }
}

function renderPending(entry) {
  const status =
    entry.status === 'uploading'
      ? 'uploading…'
      : entry.status === 'failed'
        ? `failed: ${entry.error?.message ?? 'error'}`
        : formatBytes(entry.metadata?.size ?? entry.file.size);
  const element = h(
    'li',
    { class: ['pending-file', `is-${entry.status}`], dataset: { status: entry.status } },
    icon(entry.file.type.startsWith('image/') ? 'image' : 'file'),
    h('span', { class: 'file-name', text: entry.file.name }),
    h('span', { class: 'file-size', text: status }),
    h(
      'button',
      {
        type: 'button',
        class: 'icon-button remove-file',
        title: `Remove ${entry.file.name}`,
        onclick: () => {
          state.pending = state.pending.filter((other) => other !== entry);
          entry.element.remove();
          elements.input.focus();
        },
      },
      icon('close'),
      h('span', { class: 'sr-only', text: `Remove ${entry.file.name}` }),
    ),
  );
  if (entry.element) entry.element.replaceWith(element);
  else elements.pending.append(element);
  entry.element = element;
}

function clearPending() {
  state.pending = [];
  clear(elements.pending);
}

// ---------------------------------------------------------------- side panel

function openSide(tab) {
  state.side = tab;
  elements.side.hidden = false;
  document.body.classList.add('side-open');
  for (const name of ['debug', 'tree']) {
    const selected = name === tab;
    $(`tab-${name}`).setAttribute('aria-selected', String(selected));
    $(`tab-${name}`).tabIndex = selected ? 0 : -1;
    $(`panel-${name}`).hidden = !selected;
    $(`toggle-${name}`).setAttribute('aria-pressed', String(selected));
  }
  if (state.inspected) state.inspected.element.classList.add('is-inspected');
  else if (tab === 'debug') {
    const last = [...chat.turns].reverse().find((turn) => turn.output || turn.error);
    if (last && !last.restored) showTurnDebug(last);
  }
}

function closeSide() {
  state.side = null;
  state.inspected?.element.classList.remove('is-inspected');
  elements.side.hidden = true;
  document.body.classList.remove('side-open');
  for (const name of ['debug', 'tree']) $(`toggle-${name}`).setAttribute('aria-pressed', 'false');
}

function toggleSide(tab) {
  if (state.side === tab) closeSide();
  else openSide(tab);
}

function showTurnDebug(turn) {
  state.inspected?.element.classList.remove('is-inspected');
  state.inspected = turn;
  turn.element.classList.add('is-inspected');
  renderTurnDebug(elements.debugContent, turn, {
    nodeLabel,
    onNode: (id) => {
      openSide('tree');
      treeView.select(id);
    },
  });
  elements.turnSelect.value = String(chat.turns.indexOf(turn));
  highlightTurn(turn);
}

/** The tree shows the path of `turn` and the session's current node (where the next message resumes). */
function highlightTurn(turn) {
  const latest = [...chat.turns].reverse().find((candidate) => candidate.output);
  const current = latest?.output?.nodeId ?? treeView.current;
  treeView.highlight({ path: turn?.output ? turnPath(turn) : [], current });
  const last = turn === latest;
  $('legend-path').textContent = turn && !last ? `path of turn ${turn.number}` : "last turn's path";
}

function updateTurnSelect() {
  const select = elements.turnSelect;
  const inspected = state.inspected;
  clear(select);
  chat.turns.forEach((turn, index) => {
    if (turn.restored) return;
    const text = turn.userText.length > 40 ? `${turn.userText.slice(0, 39)}…` : turn.userText;
    select.append(h('option', { value: String(index), text: `Turn ${turn.number} — ${text}` }));
  });
  select.disabled = select.options.length === 0;
  if (inspected) select.value = String(chat.turns.indexOf(inspected));
}

// ---------------------------------------------------------------- events

function autosize() {
  const input = elements.input;
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

function wire() {
  elements.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    void send({ text: elements.input.value });
  });
  elements.input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      elements.composer.requestSubmit();
    }
  });
  elements.input.addEventListener('input', autosize);
  elements.stop.addEventListener('click', () => state.controller?.abort());
  elements.fileInput.addEventListener('change', () => {
    void addFiles([...elements.fileInput.files]);
    elements.fileInput.value = '';
  });
  const chatArea = $('chat');
  chatArea.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    $('drop-hint').hidden = false;
  });
  chatArea.addEventListener('dragleave', (event) => {
    if (!chatArea.contains(event.relatedTarget)) $('drop-hint').hidden = true;
  });
  chatArea.addEventListener('drop', (event) => {
    if (!event.dataTransfer?.files.length) return;
    event.preventDefault();
    $('drop-hint').hidden = true;
    void addFiles([...event.dataTransfer.files]);
  });
  $('new-chat').addEventListener('click', () => void newChat());
  $('toggle-debug').addEventListener('click', () => toggleSide('debug'));
  $('toggle-tree').addEventListener('click', () => toggleSide('tree'));
  $('tab-debug').addEventListener('click', () => openSide('debug'));
  $('tab-tree').addEventListener('click', () => openSide('tree'));
  $('side-close').addEventListener('click', () => {
    const tab = state.side;
    closeSide();
    $(`toggle-${tab ?? 'tree'}`).focus();
  });
  $('api-key-button').addEventListener('click', async () => {
    if (await askApiKey(null)) await loadTree();
  });
  elements.side.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      const tab = state.side;
      closeSide();
      $(`toggle-${tab ?? 'tree'}`).focus();
    }
    if (
      event.target.getAttribute('role') === 'tab' &&
      (event.key === 'ArrowRight' || event.key === 'ArrowLeft')
    ) {
      const tabs = [...elements.side.querySelectorAll('[role="tab"]')].filter((tab) => !tab.hidden);
      const next =
        tabs[(tabs.indexOf(event.target) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      openSide(next.id.replace('tab-', ''));
      next.focus();
    }
  });
  elements.turnSelect.addEventListener('change', () => {
    const turn = chat.turns[Number(elements.turnSelect.value)];
    if (turn) showTurnDebug(turn);
  });
  $('route-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void routeText($('route-input').value);
  });
}

/** `POST /api/v1/route` (debug only): where a text would go on a fresh session. */
async function routeText(text) {
  const result = $('route-result');
  if (!text.trim()) return;
  result.hidden = false;
  clear(result).append(h('p', { class: 'muted', text: 'Routing…' }));
  try {
    const route = await withApiKey(() => api.route(text));
    const path = [];
    for (const decision of route.decisions) {
      for (const id of [decision.nodeId, decision.nextNodeId]) if (!path.includes(id)) path.push(id);
    }
    treeView.highlight({ path, current: treeView.current });
    $('legend-path').textContent = 'path of the routed text';
    clear(result).append(
      h(
        'p',
        {},
        route.noMatch
          ? h('strong', { class: 'tone-warn', text: 'No match' })
          : h('strong', { text: 'Goes to ' }),
        route.noMatch ? ' — exploration stops on ' : '',
        h('button', {
          type: 'button',
          class: 'node-ref',
          text: nodeLabel(route.nodeId),
          onclick: () => treeView.select(route.nodeId),
        }),
        h('span', { class: 'muted', text: ` · ${route.decisions.length} decisions · path highlighted` }),
      ),
    );
  } catch (error) {
    clear(result).append(h('p', { class: 'tone-error', text: `${error.code ?? 'ERROR'}: ${error.message}` }));
  }
}

wire();
await loadTree();
await startSession();
document.body.classList.add('is-ready');
elements.input.focus();
