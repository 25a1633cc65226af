import type { HistoryEntry, StoredTurnFact } from '@treeagent/core/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { HandoffDetail, HandoffSummary } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { handoffApi } from '../api/handoff-api';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { JsonBlock } from '../components/json-block';
import { TurnFactsView } from '../debug/turn-facts-view';
import { OperatorBadge } from './operator-badge';
import { useOperator } from './operator-gate';
import { WebhookDeadLetters } from './webhook-dead-letters';
import './console.css';

/** "3 min", "1 h 05 min": how long a session has waited. */
export function formatWait(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The console once logged in: the queue on the left, the selected session in the middle, its state and notes on the right. */
export function ConsoleView() {
  const { api, withApiKey, setReady } = useApp();
  const { operator } = useOperator();
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [queueFilter, setQueueFilter] = useState('');
  const [list, setList] = useState<HandoffSummary[]>([]);
  const [queues, setQueues] = useState<string[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [detail, setDetail] = useState<HandoffDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  const typingUsers = useUserTyping();
  const selectedRef = useRef(selected);
  selectedRef.current = selected;

  const run = useCallback(
    async (action: () => Promise<unknown>) => {
      try {
        await withApiKey(action);
        setError(null);
        return true;
      } catch (caught) {
        setError(messageOf(caught));
        return false;
      }
    },
    [withApiKey],
  );

  const loadList = useCallback(async () => {
    await run(async () => {
      const response = await handoffApi.list(api, status);
      setList(response.handoffs);
      setQueues(response.queues);
      setNow(Date.now());
    });
    setReady(true);
  }, [api, run, status, setReady]);

  const loadDetail = useCallback(
    async (sessionId: string) => {
      await run(async () => {
        const next = await handoffApi.detail(api, sessionId);
        if (selectedRef.current === sessionId) setDetail(next);
      });
    },
    [api, run],
  );

  useEffect(() => {
    void loadList();
    return () => setReady(false);
  }, [loadList, setReady]);

  useEffect(() => {
    setDetail(null);
    if (selected) void loadDetail(selected);
  }, [selected, loadDetail]);

  // Live: the queue and the open session follow what happens on any server process.
  useEffect(() => {
    const controller = new AbortController();
    void handoffApi.follow(
      api,
      (event) => {
        if (event.type === 'typing') return typingUsers.signal(event.sessionId, event.typing);
        if (event.type === 'queue') void loadList();
        const open = selectedRef.current;
        if (open && (event.type === 'queue' || event.sessionId === open)) void loadDetail(open);
      },
      controller.signal,
    );
    const clock = setInterval(() => setNow(Date.now()), 5000);
    return () => {
      controller.abort();
      clearInterval(clock);
    };
  }, [api, loadList, loadDetail, typingUsers.signal]);

  const shown = list.filter((item) => !queueFilter || item.queue === queueFilter);

  return (
    <>
      <TopBar>
        <OperatorBadge />
      </TopBar>
      <main id="console-page" class="page console">
        <aside class="console-queue" aria-label="Queue">
          <div class="console-tabs" role="tablist">
            {(['open', 'closed'] as const).map((tab) => (
              <button
                key={tab}
                id={`queue-tab-${tab}`}
                type="button"
                role="tab"
                aria-selected={status === tab ? 'true' : 'false'}
                class="ghost-button"
                onClick={() => setStatus(tab)}
              >
                {tab === 'open' ? `Queue (${status === 'open' ? list.length : '…'})` : 'Closed'}
              </button>
            ))}
          </div>
          <label class="console-filter">
            <span>Queue</span>
            <select
              id="queue-filter"
              value={queueFilter}
              onChange={(event) => setQueueFilter((event.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">All queues</option>
              {queues.map((queue) => (
                <option key={queue} value={queue}>
                  {queue}
                </option>
              ))}
            </select>
          </label>
          <ul id="queue-list" class="queue-list">
            {shown.map((item) => (
              <li key={item.sessionId}>
                <button
                  type="button"
                  class={`queue-item queue-item--${item.status}${item.sessionId === selected ? ' is-selected' : ''}`}
                  data-session-id={item.sessionId}
                  onClick={() => setSelected(item.sessionId)}
                >
                  <span class="queue-item-top">
                    <span class="queue-chip">{item.queue}</span>
                    <span class="queue-wait" title={`since ${new Date(item.since).toLocaleString()}`}>
                      {item.status === 'closed' ? item.outcome : formatWait(now - Date.parse(item.since))}
                    </span>
                  </span>
                  <span class="queue-reason">{item.reason}</span>
                  {item.lastMessages.length ? (
                    <span class="queue-last">“{item.lastMessages.at(-1)}”</span>
                  ) : null}
                  <span class="queue-status">
                    {typingUsers.typing.has(item.sessionId) ? (
                      <span class="queue-typing">typing… · </span>
                    ) : null}
                    {item.status === 'waiting'
                      ? 'Waiting'
                      : item.status === 'claimed'
                        ? `Claimed by ${item.operator?.id === operator.id ? 'you' : item.operator?.name}`
                        : `Closed ${item.closedAt ? new Date(item.closedAt).toLocaleTimeString() : ''}`}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {shown.length === 0 ? (
            <p id="queue-empty" class="muted console-empty">
              {status === 'open' ? 'Nobody is waiting.' : 'No closed handoffs.'}
            </p>
          ) : null}
          <WebhookDeadLetters />
        </aside>
        {error ? (
          <p id="console-error" class="console-error tone-error" role="alert">
            {error}
          </p>
        ) : null}
        {detail && selected ? (
          <SessionPanel
            key={selected}
            sessionId={selected}
            detail={detail}
            now={now}
            userTyping={typingUsers.typing.has(selected)}
            run={run}
            reload={() => loadDetail(selected)}
          />
        ) : (
          <section class="console-session console-placeholder">
            <p class="muted">Pick a session in the queue.</p>
          </section>
        )}
      </main>
    </>
  );
}

function SessionPanel({
  sessionId,
  detail,
  now,
  userTyping,
  run,
  reload,
}: {
  sessionId: string;
  detail: HandoffDetail;
  now: number;
  /** The user is typing now (their page says so while the operators have the session). */
  userTyping: boolean;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  reload: () => Promise<void>;
}) {
  const { api, tree } = useApp();
  const { operator } = useOperator();
  const state = detail.state;
  const holder = state?.operator ?? null;
  const mine = holder?.id === operator.id;
  const admin = operator.role === 'admin';
  const [target, setTarget] = useState('');
  const [reply, setReply] = useState('');
  const [options, setOptions] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [note, setNote] = useState('');
  const typing = useRef(false);
  const transcript = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (transcript.current) transcript.current.scrollTop = transcript.current.scrollHeight;
  }, [detail.history.length]);

  const act = async (action: () => Promise<unknown>) => {
    if (await run(action)) await reload();
  };

  const setTyping = (value: boolean) => {
    if (!mine || typing.current === value) return;
    typing.current = value;
    void handoffApi.typing(api, sessionId, value).catch(() => {});
  };

  const send = async (event: Event) => {
    event.preventDefault();
    if (!reply.trim() && files.length === 0) return;
    const sent = await run(async () => {
      const uploaded = [];
      for (const file of files) uploaded.push(await handoffApi.upload(api, sessionId, file));
      const optionList = options
        .split(',')
        .map((option) => option.trim())
        .filter(Boolean);
      await handoffApi.reply(api, sessionId, {
        content: reply.trim(),
        ...(optionList.length ? { options: optionList } : {}),
        ...(uploaded.length ? { attachments: uploaded.map((file) => file.id) } : {}),
      });
    });
    if (sent) {
      setReply('');
      setOptions('');
      setFiles([]);
      setTyping(false);
      await reload();
    }
  };

  const nodes = tree ? tree.tree.nodes.filter((node) => node.type !== 'root') : [];

  return (
    <>
      <section id="console-session" class="console-session" aria-label="Session">
        <header class="session-head">
          <div>
            <h1 id="session-reason">{detail.handoff.reason}</h1>
            <p class="muted">
              Queue <strong>{detail.handoff.queue}</strong> · waiting{' '}
              {formatWait(now - Date.parse(detail.handoff.since))} · session{' '}
              <code>{sessionId.slice(0, 12)}</code>
            </p>
            {detail.handoff.summary ? (
              <p id="session-summary" class="session-summary">
                {detail.handoff.summary}
              </p>
            ) : null}
          </div>
          <p id="session-holder" class="session-holder">
            {!state
              ? 'Closed: the assistant has this session.'
              : holder
                ? `Claimed by ${mine ? 'you' : holder.name}`
                : 'Waiting'}
          </p>
        </header>
        {state ? (
          <div class="session-actions">
            {!holder ? (
              <button
                id="claim"
                type="button"
                class="primary-button"
                onClick={() => void act(() => handoffApi.claim(api, sessionId))}
              >
                Claim
              </button>
            ) : null}
            {holder && !mine && admin ? (
              <button
                id="take-over"
                type="button"
                class="ghost-button"
                onClick={() => void act(() => handoffApi.claim(api, sessionId, true))}
              >
                Take over
              </button>
            ) : null}
            {mine ? (
              <button
                id="release"
                type="button"
                class="ghost-button"
                onClick={() => void act(() => handoffApi.release(api, sessionId))}
              >
                Release
              </button>
            ) : null}
            {mine || admin ? (
              <>
                <label class="hand-back">
                  <span class="sr-only">Hand back to</span>
                  <select
                    id="hand-back-target"
                    value={target}
                    onChange={(event) => setTarget((event.currentTarget as HTMLSelectElement).value)}
                  >
                    <option value="">The assistant's default</option>
                    {nodes.map((node) => (
                      <option key={node.id} value={String(node.id)}>
                        {'  '.repeat(Math.max(0, node.depth - 1))}
                        {tree!.nodeLabel(node.id)} ({node.type})
                      </option>
                    ))}
                  </select>
                </label>
                <button
                  id="hand-back"
                  type="button"
                  class="ghost-button"
                  onClick={() =>
                    void act(() =>
                      handoffApi.handBack(api, sessionId, target ? { nodeTarget: Number(target) } : {}),
                    )
                  }
                >
                  Hand back
                </button>
                <button
                  id="close-handoff"
                  type="button"
                  class="ghost-button"
                  onClick={() => void act(() => handoffApi.close(api, sessionId, !mine && admin))}
                >
                  Close
                </button>
              </>
            ) : null}
          </div>
        ) : null}
        <ol id="transcript" class="transcript" ref={transcript} aria-label="Transcript">
          {detail.history.map((entry, index) => {
            const next = detail.history[index + 1];
            // After a turn's last row: its debug view (decisions, node reached, status).
            const fact = next?.turn === entry.turn ? undefined : factOf(detail.facts, entry.turn);
            return [
              <TranscriptEntry key={`${index}-${entry.at}`} entry={entry} sessionId={sessionId} />,
              fact ? <TurnDebugEntry key={`debug-${entry.turn}`} fact={fact} /> : null,
            ];
          })}
        </ol>
        <p id="user-typing" class="user-typing muted" aria-live="polite">
          {userTyping && state ? 'The user is typing…' : ''}
        </p>
        {state ? (
          <form id="reply-form" class="reply-form" onSubmit={send}>
            <textarea
              id="reply-input"
              rows={3}
              placeholder={mine ? 'Write to the user…' : 'Claim the session to write to the user.'}
              disabled={!mine}
              value={reply}
              onInput={(event) => {
                const value = (event.currentTarget as HTMLTextAreaElement).value;
                setReply(value);
                setTyping(value.trim() !== '');
              }}
              onBlur={() => setTyping(false)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  (event.currentTarget.form as HTMLFormElement).requestSubmit();
                }
              }}
            />
            <div class="reply-extras">
              <input
                id="reply-options"
                placeholder="Options, comma-separated"
                disabled={!mine}
                value={options}
                onInput={(event) => setOptions((event.currentTarget as HTMLInputElement).value)}
              />
              <input
                id="reply-file"
                type="file"
                multiple
                disabled={!mine}
                onChange={(event) => setFiles([...((event.currentTarget as HTMLInputElement).files ?? [])])}
              />
              <button id="reply-send" type="submit" class="primary-button" disabled={!mine}>
                Send
              </button>
            </div>
          </form>
        ) : null}
      </section>
      <aside class="console-side" aria-label="Session state and notes">
        <h2>Session</h2>
        {detail.session ? (
          <dl class="session-facts">
            <dt>Turns</dt>
            <dd id="session-turns">{detail.session.turn}</dd>
            <dt>Last node</dt>
            <dd>
              {detail.session.lastNodeId === null
                ? '—'
                : (tree?.nodeLabel(detail.session.lastNodeId) ?? detail.session.lastNodeId)}
            </dd>
            <dt>Fail counter</dt>
            <dd>{detail.session.failCounter}</dd>
            <dt>Files</dt>
            <dd>{detail.session.files.length}</dd>
          </dl>
        ) : null}
        {detail.session ? <JsonBlock value={detail.session.state} label="Session state" /> : null}
        <h2>Internal notes</h2>
        <ul id="notes" class="notes">
          {detail.notes.map((item, index) => (
            <li key={`${item.at}-${index}`}>
              <span class="note-meta">
                {item.operator.name} · {new Date(item.at).toLocaleTimeString()}
              </span>
              <span class="note-text">{item.text}</span>
            </li>
          ))}
        </ul>
        <form
          class="note-form"
          onSubmit={async (event) => {
            event.preventDefault();
            if (!note.trim()) return;
            if (await run(() => handoffApi.note(api, sessionId, note.trim()))) {
              setNote('');
              await reload();
            }
          }}
        >
          <textarea
            id="note-input"
            rows={2}
            placeholder="A note for colleagues (never shown to the user)"
            value={note}
            onInput={(event) => setNote((event.currentTarget as HTMLTextAreaElement).value)}
          />
          <button id="note-add" type="submit" class="ghost-button">
            Add note
          </button>
        </form>
      </aside>
    </>
  );
}

/** The stored facts of a turn (`null` facts: the session store keeps none). */
function factOf(facts: StoredTurnFact[] | null, turn: number): StoredTurnFact | undefined {
  return facts?.findLast((fact) => fact.turn === turn);
}

/** A turn's debug view in the transcript, folded: status and node reached, then the decisions. */
function TurnDebugEntry({ fact }: { fact: StoredTurnFact }) {
  const { tree } = useApp();
  const nodeLabel = (id: number) => tree?.nodeLabel(id) ?? `node ${id}`;
  return (
    <li class="t-debug" data-turn={String(fact.turn)}>
      <details>
        <summary>
          Debug · turn {fact.turn} · <span class={`t-debug-status status-${fact.status}`}>{fact.status}</span>
          {fact.nodeId === null ? '' : ` · ${nodeLabel(fact.nodeId)}`}
          {fact.decisions.length
            ? ` · ${fact.decisions.length} decision${fact.decisions.length === 1 ? '' : 's'}`
            : ''}
        </summary>
        <TurnFactsView fact={fact} nodeLabel={nodeLabel} />
      </details>
    </li>
  );
}

/**
 * Which sessions' users are typing now, from the console's stream (`typing` events). An indicator
 * whose "stopped" never came fades after 8 s.
 */
function useUserTyping() {
  const [typing, setTyping] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const signal = useCallback((sessionId: string, on: boolean) => {
    clearTimeout(timers.current.get(sessionId));
    const set = (value: boolean) =>
      setTyping((current) => {
        if (current.has(sessionId) === value) return current;
        const next = new Set(current);
        if (value) next.add(sessionId);
        else next.delete(sessionId);
        return next;
      });
    set(on);
    if (on)
      timers.current.set(
        sessionId,
        setTimeout(() => set(false), 8000),
      );
  }, []);
  useEffect(
    () => () => {
      for (const timer of timers.current.values()) clearTimeout(timer);
    },
    [],
  );
  return { typing, signal };
}

function TranscriptEntry({ entry, sessionId }: { entry: HistoryEntry; sessionId: string }) {
  const { tree } = useApp();
  if (entry.role === 'system') {
    return <li class="t-entry t-entry--system">{entry.content}</li>;
  }
  const who =
    entry.role === 'user'
      ? 'User'
      : entry.operator
        ? entry.operator.name
        : `Assistant${entry.nodeId !== undefined && tree ? ` · ${tree.nodeLabel(entry.nodeId)}` : ''}`;
  const kind = entry.role === 'user' ? 'user' : entry.operator ? 'operator' : 'agent';
  return (
    <li class={`t-entry t-entry--${kind}`} data-turn={String(entry.turn)}>
      <span class="t-who">
        {who}{' '}
        <span class="muted">
          · turn {entry.turn} · {new Date(entry.at).toLocaleTimeString()}
        </span>
      </span>
      {entry.content ? <span class="t-text">{entry.content}</span> : null}
      {entry.selectedOption ? <span class="muted"> (option)</span> : null}
      {entry.options?.length ? <span class="t-options">Options: {entry.options.join(' · ')}</span> : null}
      {entry.attachments?.length ? (
        <span class="t-files">
          {entry.attachments.map((file) => (
            <a key={file.id} href={handoffApi.fileUrl(sessionId, file.id)} target="_blank" rel="noreferrer">
              {file.name}
            </a>
          ))}
        </span>
      ) : null}
    </li>
  );
}
