/** The tree view: the effective tree from GET /api/v1/tree, components framed, the path highlighted. */
import { clear, formatSimilarity, h, jsonBlock } from './dom.js';

const FLAGS = [
  ['isPrimary', 'primary', 'Primary agent: first interactions start from it'],
  ['isAnchor', 'anchor', 'Anchor: exploration climbs back here when the node just executed has nothing'],
  ['isBlocking', 'blocking', 'Blocking: exploration stops when it reaches it'],
  ['isMute', 'mute', 'Mute: its message is delivered and the turn goes on'],
];

/** A short guess at a component's name: the common `name:` prefix of its nodes' names, if any. */
function componentName(nodes) {
  const prefixes = new Set(
    nodes.map((node) => (node.name?.includes(':') ? node.name.split(':')[0].trim() : null)),
  );
  if (prefixes.size !== 1) return null;
  return [...prefixes][0];
}

export class TreeView {
  /**
   * @param {object} options
   * @param {HTMLElement} options.container where the tree goes
   * @param {HTMLElement} options.details where the selected node's properties go
   * @param {HTMLElement} options.header where the tree's name and counts go
   */
  constructor(options) {
    this.container = options.container;
    this.details = options.details;
    this.header = options.header;
    this.tree = null;
    /** @type {Map<number, any>} */
    this.nodes = new Map();
    /** @type {Map<number, HTMLElement>} tree items by node id */
    this.items = new Map();
    this.path = [];
    this.current = null;
    this.selected = null;
    this.container.addEventListener('keydown', (event) => this.onKey(event));
  }

  get debug() {
    return Boolean(this.tree?.nodes.some((node) => Array.isArray(node.chunks)));
  }

  nodeLabel(id) {
    const node = this.nodes.get(id);
    if (!node) return `#${id}`;
    return `${node.name ?? node.type} #${id}`;
  }

  setTree(tree) {
    this.tree = tree;
    this.nodes = new Map(tree.nodes.map((node) => [node.id, node]));
    const scopes = new Map();
    for (const node of tree.nodes) {
      if (node.scope.kind !== 'component') continue;
      if (!scopes.has(node.scope.id)) scopes.set(node.scope.id, []);
      scopes.get(node.scope.id).push(node);
    }
    this.scopes = new Map(
      [...scopes].map(([id, nodes], index) => [
        id,
        { id, index, name: componentName(nodes), size: nodes.length },
      ]),
    );
    this.render();
  }

  scopeLabel(scope) {
    if (scope.kind === 'root') return 'root scope';
    const info = this.scopes.get(scope.id);
    return `component ${scope.id}${info?.name ? ` · ${info.name}` : ''}`;
  }

  render() {
    const tree = this.tree;
    clear(this.header).append(
      h('span', { class: 'tree-name', text: tree.name }),
      h(
        'span',
        { class: 'muted' },
        `${tree.nodes.length} nodes · ${this.scopes.size} component${this.scopes.size === 1 ? '' : 's'} · `,
        h('code', { title: 'content hash', text: tree.contentHash.slice(0, 10) }),
      ),
    );
    this.items.clear();
    const root = this.nodes.get(tree.rootId);
    const list = h('ul', { class: 'tree', role: 'tree', 'aria-label': `Tree ${tree.name}` });
    if (root) list.append(this.renderNode(root, 1));
    clear(this.container).append(list);
    this.applyHighlight();
    const first = this.items.get(this.selected ?? tree.rootId);
    if (first) first.tabIndex = 0;
    if (this.selected !== null && this.nodes.has(this.selected)) this.showDetails(this.selected);
    else this.showPlaceholder();
  }

  renderNode(node, level) {
    const parent = node.parentId === null ? null : this.nodes.get(node.parentId);
    const children = node.children.map((id) => this.nodes.get(id)).filter(Boolean);
    const entersComponent = node.scope.kind === 'component' && parent?.scope.id !== node.scope.id;
    const scopeInfo = node.scope.kind === 'component' ? this.scopes.get(node.scope.id) : null;
    const row = h(
      'div',
      { class: 'tree-row' },
      children.length
        ? h('span', { class: 'twisty', 'aria-hidden': 'true', onclick: () => this.toggle(node.id) })
        : h('span', { class: 'twisty is-leaf', 'aria-hidden': 'true' }),
      h('span', { class: ['type-badge', `type-${node.type}`], text: node.type }),
      h('span', { class: 'node-name', text: node.name ?? `(${node.type})` }),
      h('span', { class: 'node-id', text: `#${node.id}` }),
      FLAGS.filter(([key]) => node[key]).map(([, label, title]) =>
        h('span', { class: ['flag', `flag-${label}`], title, text: label }),
      ),
      h(
        'span',
        { class: 'row-end' },
        node.chunkCount
          ? h('span', {
              class: 'chunk-count',
              title: `${node.chunkCount} chunk${node.chunkCount === 1 ? '' : 's'}`,
              text: `${node.chunkCount} ch`,
            })
          : null,
        h('span', { class: 'path-mark', 'aria-hidden': 'true' }),
      ),
      scopeInfo ? h('span', { class: 'sr-only', text: `, in ${this.scopeLabel(node.scope)}` }) : null,
    );
    const item = h(
      'li',
      {
        role: 'treeitem',
        class: [
          'tree-item',
          scopeInfo && 'in-component',
          scopeInfo && `scope-color-${scopeInfo.index % 6}`,
          entersComponent && 'component-entry',
        ],
        tabIndex: -1,
        'aria-level': String(level),
        'aria-selected': 'false',
        'aria-expanded': children.length ? 'true' : undefined,
        dataset: {
          nodeId: String(node.id),
          type: node.type,
          ...(entersComponent ? { component: this.scopeLabel(node.scope) } : {}),
        },
        onclick: (event) => {
          event.stopPropagation();
          if (event.target.classList.contains('twisty')) return;
          this.select(node.id);
        },
      },
      entersComponent
        ? h(
            'div',
            { class: 'component-label', 'aria-hidden': 'true' },
            h('span', { text: this.scopeLabel(node.scope) }),
          )
        : null,
      row,
    );
    if (children.length) {
      item.append(
        h(
          'ul',
          { role: 'group' },
          children.map((child) => this.renderNode(child, level + 1)),
        ),
      );
    }
    this.items.set(node.id, item);
    return item;
  }

  toggle(id, expanded) {
    const item = this.items.get(id);
    if (!item?.hasAttribute('aria-expanded')) return;
    const next = expanded ?? item.getAttribute('aria-expanded') !== 'true';
    item.setAttribute('aria-expanded', String(next));
  }

  /** Highlights the last turn's path and the current node (where the next message resumes). */
  highlight({ path = [], current = null } = {}) {
    this.path = path;
    this.current = current;
    this.applyHighlight();
  }

  applyHighlight() {
    for (const [id, item] of this.items) {
      const step = this.path.indexOf(id);
      item.classList.toggle('on-path', step !== -1);
      item.classList.toggle('is-current', id === this.current);
      const mark = item.querySelector(':scope > .tree-row .path-mark');
      if (mark) {
        mark.textContent = id === this.current ? 'current' : step !== -1 ? String(step + 1) : '';
        mark.title =
          id === this.current
            ? 'Current node: the next message resumes here'
            : step !== -1
              ? `Step ${step + 1} of the last turn's path`
              : '';
      }
    }
    // Keep the path visible: expand every ancestor of a highlighted node.
    for (const id of [...this.path, this.current]) {
      let node = this.nodes.get(id);
      while (node && node.parentId !== null) {
        this.toggle(node.parentId, true);
        node = this.nodes.get(node.parentId);
      }
    }
  }

  /** Selects a node: shows its properties and chunks. */
  select(id, { focus = true } = {}) {
    const item = this.items.get(id);
    if (!item) return;
    let node = this.nodes.get(id);
    while (node && node.parentId !== null) {
      this.toggle(node.parentId, true);
      node = this.nodes.get(node.parentId);
    }
    for (const other of this.items.values()) {
      other.setAttribute('aria-selected', 'false');
      other.tabIndex = -1;
    }
    item.setAttribute('aria-selected', 'true');
    item.tabIndex = 0;
    this.selected = id;
    if (focus) item.focus({ preventScroll: true });
    item.querySelector('.tree-row').scrollIntoView({ block: 'nearest' });
    this.showDetails(id);
  }

  showPlaceholder() {
    clear(this.details).append(
      h('p', { class: 'empty-note', text: 'Select a node to see its properties and chunks.' }),
    );
  }

  showDetails(id) {
    const node = this.nodes.get(id);
    const ref = (target) =>
      target === null || target === undefined
        ? h('span', { class: 'muted', text: '—' })
        : h('button', {
            type: 'button',
            class: 'node-ref',
            text: this.nodeLabel(target),
            onclick: () => this.select(target),
          });
    const rows = [
      ['Type', h('span', { class: ['type-badge', `type-${node.type}`], text: node.type })],
      ['Parent', ref(node.parentId)],
      ['Children', node.children.length ? node.children.map((child) => ref(child)) : '—'],
      ['Agent', ref(node.agentId)],
      ['Scope', this.scopeLabel(node.scope)],
      ['Anchor', ref(node.anchorId)],
      ['Threshold', formatSimilarity(node.similarityThreshold)],
      [
        'Flags',
        FLAGS.filter(([key]) => node[key]).map(([, label, title]) =>
          h('span', { class: ['flag', `flag-${label}`], title, text: label }),
        ),
      ],
      [
        'Links',
        Object.keys(node.links).length
          ? Object.entries(node.links).map(([name, target]) =>
              h('span', { class: 'link-entry' }, h('code', { text: name }), ' → ', ref(target)),
            )
          : '—',
      ],
      [
        'Callbacks',
        node.callbacks.length ? node.callbacks.map((name) => h('code', { class: 'cb', text: name })) : '—',
      ],
      ['Model', node.model ? h('code', { text: node.model }) : 'default'],
    ];
    if (node.description) rows.splice(1, 0, ['Description', node.description]);
    const flagsRow = rows.find(([key]) => key === 'Flags');
    if (!flagsRow[1].length) flagsRow[1] = '—';
    clear(this.details).append(
      h(
        'div',
        { class: 'node-details', dataset: { nodeId: String(id) } },
        h(
          'h3',
          { class: 'details-title' },
          h('span', { text: node.name ?? `(${node.type})` }),
          h('span', { class: 'node-id', text: `#${node.id}` }),
          node.id === this.current ? h('span', { class: 'flag flag-current', text: 'current' }) : null,
        ),
        h(
          'dl',
          { class: 'kv' },
          rows.map(([key, value]) => [h('dt', { text: key }), h('dd', {}, value)]),
        ),
        this.chunksBlock(node),
      ),
    );
  }

  chunksBlock(node) {
    const title = h('h4', { text: `Chunks (${node.chunkCount})` });
    if (!node.chunkCount)
      return h('div', { class: 'chunks' }, title, h('p', { class: 'empty-note', text: 'No chunks.' }));
    if (!Array.isArray(node.chunks)) {
      return h(
        'div',
        { class: 'chunks' },
        title,
        h('p', {
          class: 'empty-note',
          text: 'Chunk texts are shown only when the server runs in debug mode.',
        }),
      );
    }
    return h(
      'div',
      { class: 'chunks' },
      title,
      h(
        'ol',
        { class: 'chunk-list' },
        node.chunks.map((chunk) =>
          h(
            'li',
            {},
            h('span', { class: 'chunk-text', text: chunk.text }),
            h(
              'span',
              { class: 'chunk-meta' },
              h('code', { text: String(chunk.id) }),
              chunk.forRag
                ? h('span', {
                    class: 'flag flag-rag',
                    title: 'Retrieved by the query node (forRag)',
                    text: 'rag',
                  })
                : null,
            ),
            Object.keys(chunk.extra ?? {}).length
              ? h(
                  'details',
                  { class: 'inline-json' },
                  h('summary', { text: 'extra' }),
                  jsonBlock(chunk.extra),
                )
              : null,
          ),
        ),
      ),
    );
  }

  /** Keyboard of a tree (WAI-ARIA): arrows, Home/End, Enter/Space to select. */
  onKey(event) {
    const item = event.target.closest?.('[role="treeitem"]');
    if (!item) return;
    const visible = [...this.container.querySelectorAll('[role="treeitem"]')].filter(
      (candidate) => !candidate.parentElement.closest('[aria-expanded="false"]'),
    );
    const index = visible.indexOf(item);
    const id = Number(item.dataset.nodeId);
    const move = (target) => {
      if (!target) return;
      item.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        move(visible[index + 1]);
        break;
      case 'ArrowUp':
        move(visible[index - 1]);
        break;
      case 'Home':
        move(visible[0]);
        break;
      case 'End':
        move(visible.at(-1));
        break;
      case 'ArrowRight':
        if (item.getAttribute('aria-expanded') === 'false') this.toggle(id, true);
        else if (item.getAttribute('aria-expanded') === 'true') move(visible[index + 1]);
        break;
      case 'ArrowLeft':
        if (item.getAttribute('aria-expanded') === 'true') this.toggle(id, false);
        else move(item.parentElement.closest('[role="treeitem"]'));
        break;
      case 'Enter':
      case ' ':
        this.select(id);
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}
