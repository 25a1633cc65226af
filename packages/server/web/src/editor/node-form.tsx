import { CALLBACKS_BY_TYPE, type TreeDocument, type TreeDocumentNode } from '@treeagent/core/client';
import { useState } from 'preact/hooks';
import type { EditorLintFinding, EditorProblem, EditorThresholdSuggestion } from '../../../src/api-types';
import type { NewNodeType } from './document-model';
import { DraftArea, DraftInput } from './draft-field';

type Patch = Record<string, unknown>;
type Chunk =
  | string
  | { id?: string | number; text: string; forRag?: boolean; extra?: Record<string, unknown> };

export interface NodeFormProps {
  document: TreeDocument;
  node: TreeDocumentNode;
  /** The module's exported callback names. */
  callbacks: string[];
  problems: EditorProblem[];
  lint: EditorLintFinding[];
  suggestion: EditorThresholdSuggestion | null;
  readOnly: boolean;
  onChange(patch: Patch): void;
  onAddChild(type: NewNodeType): void;
  onAddComponent(): void;
  onInstantiate(name: string): void;
  onDuplicate(): void;
  onDelete(): void;
  onMakePrimary(): void;
  /** Set for a node of a component used by name: shown read-only, with the way to edit it. */
  instance: { name: string; componentId: number } | null;
  /** Writes a component used by name out in the tree (same ids), so that its nodes can be edited. */
  onMakeExplicit(componentId: number): void;
  /** For a component: its head node (where `init` lives), edited with `onChangeHead`. */
  head: TreeDocumentNode | null;
  onChangeHead(patch: Patch): void;
  /** The node's place among its siblings (their order is the tree's), and moving it. */
  siblings: { index: number; count: number };
  onMove(direction: -1 | 1): void;
}

const CHANGEABLE_TYPES = ['emit', 'empty', 'switch', 'query', 'llm', 'guardrail'];
const NEW_TYPES: NewNodeType[] = ['emit', 'switch', 'empty', 'query', 'llm', 'guardrail', 'agent'];

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const inputValue = (event: Event) => (event.target as HTMLInputElement).value;
const checked = (event: Event) => (event.target as HTMLInputElement).checked;
const chunkText = (chunk: Chunk) => (typeof chunk === 'string' ? chunk : chunk.text);

/** The inspector of the selected node: every property the JSON holds, edited in place. */
export function NodeForm(props: NodeFormProps) {
  const { node, onChange } = props;
  const readOnly = props.readOnly || props.instance !== null;
  const type = node.type;
  const chunks = (Array.isArray(node.chunks) ? node.chunks : []) as Chunk[];
  const [paste, setPaste] = useState('');
  const [newType, setNewType] = useState<NewNodeType>('emit');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const setChunks = (next: Chunk[]) => onChange({ chunks: next });
  const updateChunk = (index: number, change: (chunk: Exclude<Chunk, string>) => Chunk) =>
    setChunks(
      chunks.map((chunk, position) => {
        if (position !== index) return chunk;
        const object = typeof chunk === 'string' ? { text: chunk } : { ...chunk };
        const next = change(object);
        // A chunk with nothing but text is written as a string, as in code.
        return typeof next === 'object' && Object.keys(next).length === 1 && 'text' in next
          ? next.text
          : next;
      }),
    );
  const emit = (node.emit ?? null) as {
    message?: { type?: string; content?: string | null };
    options?: string[] | null;
  } | null;
  const setEmit = (patch: Patch) =>
    onChange({ emit: { ...(emit ?? { message: { type: 'static', content: '' } }), ...patch } });
  const links = (node.links ?? {}) as Record<string, number>;
  const callbacks = (node.callbacks ?? {}) as Record<string, string>;
  const supported = CALLBACKS_BY_TYPE[type] ?? [];
  const findings = [
    ...props.problems.map((problem) => ({ kind: 'error', message: problem.message, fix: problem.fix })),
    ...props.lint.map((finding) => ({ kind: 'warning', message: finding.message, fix: finding.fix })),
  ];

  return (
    <form id="node-form" class="node-form" onSubmit={(event) => event.preventDefault()}>
      {props.instance ? (
        <p id="instance-note" class="note">
          Part of the component “{props.instance.name}”, used by name by component #
          {props.instance.componentId}: it is defined once in the document's <code>components</code>.{' '}
          {props.readOnly ? null : (
            <button
              type="button"
              id="make-explicit"
              class="button-small"
              onClick={() => props.onMakeExplicit(props.instance!.componentId)}
            >
              Make editable here
            </button>
          )}
        </p>
      ) : null}
      <fieldset disabled={readOnly}>
        <header class="node-form-head">
          <span class={`type-chip type-${type}`}>{type}</span>
          <span class="node-form-id">#{node.id}</span>
          {type === 'agent' ? (
            <button
              type="button"
              id="toggle-primary"
              class={`button-small${node.isPrimary ? ' is-on' : ''}`}
              title="First interactions start from the primary agent"
              onClick={props.onMakePrimary}
            >
              {node.isPrimary ? '★ primary' : '☆ make primary'}
            </button>
          ) : null}
        </header>
        {findings.length ? (
          <ul class="node-findings">
            {findings.map((finding, index) => (
              <li key={index} class={`finding is-${finding.kind}`}>
                <strong>{finding.message}</strong> <span class="finding-fix">Fix: {finding.fix}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <label class="field">
          <span>Name</span>
          <DraftInput
            id="node-name"
            value={text(node.name)}
            onCommit={(typed) => onChange({ name: typed || undefined })}
          />
        </label>
        <label class="field">
          <span>Description</span>
          <DraftArea
            rows={2}
            value={text(node.description)}
            onCommit={(typed) => onChange({ description: typed || undefined })}
          />
        </label>
        {CHANGEABLE_TYPES.includes(type) ? (
          <label class="field">
            <span>Type</span>
            <select id="node-type" value={type} onChange={(event) => onChange({ type: inputValue(event) })}>
              {CHANGEABLE_TYPES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        ) : null}

        {type !== 'component' && type !== 'head' && type !== 'tail' ? (
          <section class="form-section">
            <h3>Routing</h3>
            {type === 'root' ? (
              <label class="field">
                <span>Default similarity threshold</span>
                <DraftInput
                  id="node-default-threshold"
                  type="number"
                  step="0.01"
                  min="-1"
                  max="1"
                  value={
                    node.defaultSimilarityThreshold === undefined
                      ? ''
                      : String(node.defaultSimilarityThreshold)
                  }
                  onCommit={(typed) => onChange({ defaultSimilarityThreshold: numberOrUndefined(typed) })}
                />
              </label>
            ) : (
              <label class="field">
                <span>Similarity threshold (blank: inherited or calibrated)</span>
                <DraftInput
                  id="node-threshold"
                  type="number"
                  step="0.01"
                  min="-1"
                  max="1"
                  value={node.similarityThreshold === undefined ? '' : String(node.similarityThreshold)}
                  onCommit={(typed) => onChange({ similarityThreshold: numberOrUndefined(typed) })}
                />
              </label>
            )}
            {props.suggestion && props.suggestion.suggested !== null ? (
              <p class="suggestion">
                Suggested from labelled utterances: <strong>{props.suggestion.suggested}</strong> (now{' '}
                {props.suggestion.current}, {props.suggestion.currentSource}; keeps{' '}
                {Math.round(props.suggestion.descendKept * 100)}% of {props.suggestion.shouldDescend} that
                should descend, stops {Math.round(props.suggestion.stopRecall * 100)}% of{' '}
                {props.suggestion.shouldStop} that should not){' '}
                <button
                  type="button"
                  id="apply-suggestion"
                  class="button-small"
                  onClick={() => onChange({ similarityThreshold: props.suggestion!.suggested })}
                >
                  Apply
                </button>
              </p>
            ) : null}
            <div class="flags">
              {(['isBlocking', 'isAnchor', 'isMute'] as const).map((flag) => (
                <label key={flag} class="check">
                  <input
                    id={`node-${flag}`}
                    type="checkbox"
                    checked={node[flag] === true}
                    onChange={(event) => onChange({ [flag]: checked(event) || undefined })}
                  />
                  {flag === 'isBlocking' ? 'blocking' : flag === 'isAnchor' ? 'anchor' : 'mute'}
                </label>
              ))}
            </div>
          </section>
        ) : null}

        {type !== 'root' && type !== 'component' && type !== 'head' && type !== 'tail' ? (
          <section class="form-section">
            <h3>Chunks ({chunks.length})</h3>
            <ol class="chunk-list">
              {chunks.map((chunk, index) => (
                <li key={index} class="chunk-row">
                  <DraftInput
                    class="chunk-text"
                    aria-label={`Chunk ${index + 1}`}
                    value={chunkText(chunk)}
                    onCommit={(typed) => updateChunk(index, (object) => ({ ...object, text: typed }))}
                  />
                  {type === 'query' ? (
                    <label class="check" title="Retrieved by the query node, not a signpost for exploration">
                      <input
                        type="checkbox"
                        checked={typeof chunk === 'object' && chunk.forRag === true}
                        onChange={(event) =>
                          updateChunk(index, (object) => {
                            const next = { ...object };
                            if (checked(event)) next.forRag = true;
                            else delete next.forRag;
                            return next;
                          })
                        }
                      />
                      forRag
                    </label>
                  ) : null}
                  <DraftInput
                    class="chunk-extra"
                    aria-label={`Extra of chunk ${index + 1}`}
                    placeholder='extra {"lang":"en"}'
                    value={typeof chunk === 'object' && chunk.extra ? JSON.stringify(chunk.extra) : ''}
                    onCommit={(typed) => {
                      const raw = typed.trim();
                      try {
                        const extra = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
                        if (
                          extra !== undefined &&
                          (typeof extra !== 'object' || extra === null || Array.isArray(extra))
                        )
                          throw new Error('not an object');
                        setJsonError(null);
                        updateChunk(index, (object) => {
                          const next = { ...object };
                          if (extra) next.extra = extra;
                          else delete next.extra;
                          return next;
                        });
                      } catch {
                        setJsonError(
                          `The extra of chunk ${index + 1} is not a JSON object: write it as {"key": "value"}.`,
                        );
                      }
                    }}
                  />
                  <button
                    type="button"
                    class="button-icon"
                    aria-label={`Remove chunk ${index + 1}`}
                    onClick={() => setChunks(chunks.filter((_, position) => position !== index))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ol>
            {jsonError ? <p class="finding is-error">{jsonError}</p> : null}
            <label class="field">
              <span>Add chunks: one per line (paste many)</span>
              <textarea
                id="chunk-paste"
                rows={3}
                value={paste}
                onInput={(event) => setPaste(inputValue(event))}
              />
            </label>
            <button
              type="button"
              id="add-chunks"
              class="button-small"
              disabled={!paste.trim()}
              onClick={() => {
                const lines = paste
                  .split('\n')
                  .map((line) => line.trim())
                  .filter(Boolean);
                setChunks([...chunks, ...lines]);
                setPaste('');
              }}
            >
              Add chunks
            </button>
          </section>
        ) : null}

        {type === 'emit' ? (
          callbacks.emit ? (
            <p class="note">
              The message comes from the callback <code>{callbacks.emit}</code>.
            </p>
          ) : (
            <section class="form-section">
              <h3>Message</h3>
              <label class="field">
                <span>Kind</span>
                <select
                  id="message-type"
                  value={emit?.message?.type ?? 'static'}
                  onChange={(event) => {
                    const kind = inputValue(event);
                    setEmit({
                      message:
                        kind === 'static'
                          ? { type: kind, content: emit?.message?.content ?? '' }
                          : { type: kind },
                    });
                  }}
                >
                  <option value="static">static text</option>
                  <option value="generated">generated by the model</option>
                  <option value="none">none (options or files only)</option>
                </select>
              </label>
              {(emit?.message?.type ?? 'static') === 'static' ? (
                <label class="field">
                  <span>Text</span>
                  <DraftArea
                    id="message-content"
                    rows={3}
                    value={emit?.message?.content ?? ''}
                    onCommit={(typed) => setEmit({ message: { type: 'static', content: typed } })}
                  />
                </label>
              ) : null}
              <label class="field">
                <span>Options: one per line</span>
                <DraftArea
                  id="message-options"
                  rows={2}
                  value={(emit?.options ?? []).join('\n')}
                  onCommit={(typed) => {
                    const options = typed
                      .split('\n')
                      .map((line) => line.trim())
                      .filter(Boolean);
                    const next: Patch = { ...(emit ?? {}) };
                    if (options.length) next.options = options;
                    else delete next.options;
                    onChange({ emit: next });
                  }}
                />
              </label>
              <JsonField
                label="Attachments (JSON: [{ id, name, mimeType, origin }])"
                value={(emit as Patch | null)?.attachments}
                onChange={(value) => {
                  const next: Patch = { ...(emit ?? {}) };
                  if (value === undefined) delete next.attachments;
                  else next.attachments = value;
                  onChange({ emit: next });
                }}
              />
            </section>
          )
        ) : null}

        {type === 'guardrail' ? (
          <label class="field">
            <span>Warning</span>
            <DraftArea
              rows={2}
              value={text(node.warning)}
              onCommit={(typed) => onChange({ warning: typed })}
            />
          </label>
        ) : null}

        {type !== 'component' && type !== 'head' && type !== 'tail' ? (
          <section class="form-section">
            <h3>Links</h3>
            {Object.entries(links).map(([name, target]) => (
              <div key={name} class="link-row">
                <code>{name}</code> →
                <select
                  value={String(target)}
                  onChange={(event) => onChange({ links: { ...links, [name]: Number(inputValue(event)) } })}
                >
                  {props.document.nodes.map((other) => (
                    <option key={other.id} value={String(other.id)}>
                      #{other.id} {text(other.name)}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  class="button-icon"
                  aria-label={`Remove link ${name}`}
                  onClick={() => {
                    const { [name]: _removed, ...rest } = links;
                    onChange({ links: Object.keys(rest).length ? rest : undefined });
                  }}
                >
                  ×
                </button>
              </div>
            ))}
            <input
              id="new-link"
              placeholder="new link name, Enter"
              onKeyDown={(event) => {
                const name = inputValue(event).trim();
                if (event.key === 'Enter' && /^[A-Za-z_$][\w$]*$/.test(name)) {
                  event.preventDefault();
                  onChange({ links: { ...links, [name]: props.document.nodes[0]!.id } });
                  (event.target as HTMLInputElement).value = '';
                }
              }}
            />
          </section>
        ) : null}

        {type === 'component' ? (
          <ComponentSection
            node={node}
            head={props.head}
            callbacks={props.callbacks}
            hasModule={Boolean(props.document.module)}
            readOnly={readOnly}
            canMakeExplicit={!props.readOnly && typeof node.use === 'string'}
            onMakeExplicit={() => props.onMakeExplicit(node.id)}
            onChangeHead={props.onChangeHead}
          />
        ) : null}

        {supported.length ? (
          <section class="form-section">
            <h3>Callbacks</h3>
            {!props.document.module ? (
              <p class="note">The document names no "module": add one to pick callbacks from its exports.</p>
            ) : null}
            {supported.map((key) => (
              <label key={key} class="field field-inline">
                <span>{key}</span>
                <select
                  id={`callback-${key}`}
                  value={callbacks[key] ?? ''}
                  onChange={(event) => {
                    const name = inputValue(event);
                    const next = { ...callbacks };
                    if (name) next[key] = name;
                    else delete next[key];
                    onChange({ callbacks: Object.keys(next).length ? next : undefined });
                  }}
                >
                  <option value="">— none —</option>
                  {[...new Set([...props.callbacks, ...(callbacks[key] ? [callbacks[key]!] : [])])].map(
                    (name) => (
                      <option key={name} value={name}>
                        {name}
                        {props.callbacks.includes(name) ? '' : ' (not exported)'}
                      </option>
                    ),
                  )}
                </select>
              </label>
            ))}
          </section>
        ) : null}

        <section class="form-section node-actions">
          <h3>Structure</h3>
          <div class="action-row">
            <select
              id="new-child-type"
              aria-label="Type of the new child"
              value={newType}
              onChange={(event) => setNewType(inputValue(event) as NewNodeType)}
            >
              {NEW_TYPES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            <button
              type="button"
              id="add-child"
              class="button-small"
              onClick={() => props.onAddChild(newType)}
            >
              Add child
            </button>
            <button type="button" id="add-component" class="button-small" onClick={props.onAddComponent}>
              Add component
            </button>
          </div>
          {Object.keys(props.document.components ?? {}).length ? (
            <div class="action-row">
              {Object.keys(props.document.components ?? {}).map((name) => (
                <button
                  key={name}
                  type="button"
                  class="button-small"
                  onClick={() => props.onInstantiate(name)}
                >
                  Clone component “{name}” here
                </button>
              ))}
            </div>
          ) : null}
          {node.parent != null && props.siblings.count > 1 ? (
            <div class="action-row">
              <span class="note" id="sibling-position">
                {props.siblings.index + 1} of {props.siblings.count} siblings
              </span>
              <button
                type="button"
                id="move-up"
                class="button-small"
                disabled={props.siblings.index <= 0}
                title="Earlier among its siblings: of two equally similar children, exploration takes the first"
                onClick={() => props.onMove(-1)}
              >
                ↑ Move up
              </button>
              <button
                type="button"
                id="move-down"
                class="button-small"
                disabled={props.siblings.index >= props.siblings.count - 1}
                title="Later among its siblings"
                onClick={() => props.onMove(1)}
              >
                ↓ Move down
              </button>
            </div>
          ) : null}
          {node.parent != null ? (
            <div class="action-row">
              <button type="button" id="duplicate-node" class="button-small" onClick={props.onDuplicate}>
                Duplicate
              </button>
              <button type="button" id="delete-node" class="button-small is-danger" onClick={props.onDelete}>
                Delete subtree
              </button>
            </div>
          ) : null}
        </section>
      </fieldset>
    </form>
  );
}

/**
 * A component's own settings: the component it uses by name (with the way to write it out here), and
 * its head — the head's name and its `init` callback, which initialises the component's `self`
 * (docs/concepts.md §8).
 */
function ComponentSection(props: {
  node: TreeDocumentNode;
  head: TreeDocumentNode | null;
  callbacks: string[];
  hasModule: boolean;
  readOnly: boolean;
  canMakeExplicit: boolean;
  onMakeExplicit(): void;
  onChangeHead(patch: Patch): void;
}) {
  const { node, head } = props;
  const headCallbacks = (head?.callbacks ?? {}) as Record<string, string>;
  const init = headCallbacks.init ?? '';
  const headEditable = !props.readOnly && head !== null && typeof node.use !== 'string';
  return (
    <section class="form-section" id="component-section">
      <h3>Component</h3>
      {typeof node.use === 'string' ? (
        <p class="note">
          Uses the component “{node.use}” of the document's <code>components</code>, its nodes numbered from{' '}
          {String(node.idBase)} (idBase + local id).{' '}
          {props.canMakeExplicit ? (
            <button type="button" id="make-explicit" class="button-small" onClick={props.onMakeExplicit}>
              Make editable here
            </button>
          ) : null}
        </p>
      ) : null}
      {head ? (
        <>
          <label class="field">
            <span>Head #{head.id}: name</span>
            <DraftInput
              id="head-name"
              disabled={!headEditable}
              value={text(head.name)}
              onCommit={(typed) => props.onChangeHead({ name: typed || undefined })}
            />
          </label>
          <label class="field field-inline">
            <span title="Initialises the component's self, once per interaction that touches the component">
              head init
            </span>
            <select
              id="head-init"
              disabled={!headEditable}
              value={init}
              onChange={(event) => {
                const name = inputValue(event);
                const next = { ...headCallbacks };
                if (name) next.init = name;
                else delete next.init;
                props.onChangeHead({ callbacks: Object.keys(next).length ? next : undefined });
              }}
            >
              <option value="">— none —</option>
              {[...new Set([...props.callbacks, ...(init ? [init] : [])])].map((name) => (
                <option key={name} value={name}>
                  {name}
                  {props.callbacks.includes(name) ? '' : ' (not exported)'}
                </option>
              ))}
            </select>
          </label>
          {!props.hasModule ? (
            <p class="note">
              The document names no "module": add one to pick the head's init from its exports.
            </p>
          ) : null}
        </>
      ) : (
        <p class="note">This component has no head yet: it needs one (its entry) to be valid.</p>
      )}
    </section>
  );
}

function numberOrUndefined(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** A JSON value in a textarea: committed when it parses, an error saying so when not. */
function JsonField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <label class="field">
      <span>{label}</span>
      <DraftArea
        rows={2}
        class="mono"
        value={value === undefined ? '' : JSON.stringify(value)}
        onCommit={(typed) => {
          const raw = typed.trim();
          try {
            onChange(raw ? JSON.parse(raw) : undefined);
            setError(null);
          } catch (caught) {
            setError(`Not JSON: ${(caught as Error).message}`);
          }
        }}
      />
      {error ? <span class="finding is-error">{error}</span> : null}
    </label>
  );
}
