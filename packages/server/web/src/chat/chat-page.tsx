import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MessageRequest } from '../../../src/api-types';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { Icon } from '../components/icon';
import { ErrorNotice, NoticeAction } from '../components/notice';
import { turnPath } from '../debug/turn-trace';
import type { NodeSelection } from '../tree/tree-view';
import { Composer } from './composer';
import { Inspector, type InspectorTab } from './inspector';
import { type Turn, type UserMessage, waitsForUser } from './turn-model';
import { TurnView } from './turn-view';
import { useConversation } from './use-conversation';
import { useUploads } from './use-uploads';

/** What the tree highlights as "the path": a turn's, a routed text's, or none. */
type PathSource = { kind: 'turn'; key: number } | { kind: 'route'; path: number[] } | { kind: 'none' };

/** The chat page: the conversation, the message box, and the inspector (turn debug and tree). */
export function ChatPage() {
  const app = useApp();
  const { api, debug, tree, treeStatus } = app;
  const conversation = useConversation();
  const { turns, busy } = conversation;
  const uploads = useUploads(conversation.ensureSession);
  const [side, setSide] = useState<InspectorTab | null>(null);
  const [inspectedKey, setInspectedKey] = useState<number | null>(null);
  const [selection, setSelection] = useState<NodeSelection | null>(null);
  const [pathSource, setPathSource] = useState<PathSource>({ kind: 'none' });
  const [dropping, setDropping] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const live = useRef({ side, debug });
  live.current = { side, debug };

  // Start (or resume) the session once the tree has loaded: one API-key prompt, not two.
  const started = useRef(false);
  useEffect(() => {
    if (treeStatus === 'loading' || started.current) return;
    started.current = true;
    void conversation.startSession().then(() => {
      app.setReady(true);
      input.current?.focus();
    });
  }, [treeStatus, conversation.startSession, app.setReady]);
  useEffect(() => () => app.setReady(false), [app.setReady]);

  useEffect(() => {
    document.body.classList.toggle('side-open', side !== null);
    return () => document.body.classList.remove('side-open');
  }, [side]);

  useLayoutEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [turns]);

  const inspected = turns.find((turn) => turn.key === inspectedKey) ?? null;
  const latest = turns.findLast((turn) => turn.output);
  const current = latest?.output?.nodeId ?? conversation.restoredNode;
  const pathTurn = pathSource.kind === 'turn' ? turns.find((turn) => turn.key === pathSource.key) : undefined;
  const path = pathSource.kind === 'route' ? pathSource.path : pathTurn?.output ? turnPath(pathTurn) : [];
  const pathKey = path.join(',');
  // The path's identity is its ids: a new array with the same ids is the same highlight.
  const highlight = useMemo(() => ({ path, current }), [pathKey, current]);
  const pathLegend =
    pathSource.kind === 'route'
      ? 'path of the routed text'
      : pathTurn && pathTurn !== latest
        ? `path of turn ${pathTurn.number}`
        : "last turn's path";

  const inspect = (turn: Turn) => {
    setInspectedKey(turn.key);
    if (turn.output) setPathSource({ kind: 'turn', key: turn.key });
  };

  const openSide = (tab: InspectorTab) => {
    setSide(tab);
    if (tab === 'debug' && !inspected) {
      const last = turns.findLast((turn) => (turn.output || turn.error) && !turn.restored);
      if (last) inspect(last);
    }
  };
  const closeSide = () => {
    const tab = side;
    setSide(null);
    document.getElementById(`toggle-${tab ?? 'tree'}`)?.focus();
  };
  const selectNode = (id: number) =>
    setSelection((previous) => ({ id, seq: (previous?.seq ?? 0) + 1, focus: true }));

  const run = async (request: MessageRequest, user: UserMessage) => {
    const turn = await conversation.runTurn(request, user);
    if (!turn) return;
    if (turn.output) setPathSource({ kind: 'turn', key: turn.key });
    if (live.current.side === 'debug' && live.current.debug) setInspectedKey(turn.key);
    const focusInSide = panel.current?.contains(document.activeElement) ?? false;
    if (waitsForUser(turn) || !focusInSide) input.current?.focus({ preventScroll: true });
  };

  const send = async (text: string, selectedOption?: string) => {
    if (busy) return;
    if (!api.session && !(await conversation.startSession({ fresh: true }))) return;
    const attachments = uploads.ready();
    uploads.clear();
    await run(
      {
        message: text,
        ...(selectedOption ? { selectedOption } : {}),
        ...(attachments.length ? { attachments: attachments.map((file) => file.id) } : {}),
      },
      { text, selectedOption: selectedOption ?? null, attachments },
    );
  };

  const newChat = async () => {
    conversation.stop();
    uploads.clear();
    setInspectedKey(null);
    setPathSource({ kind: 'none' });
    await conversation.startSession({ fresh: true });
    input.current?.focus();
  };

  const toggle = (tab: InspectorTab) => (side === tab ? setSide(null) : openSide(tab));
  const waiting = waitsForUser(turns.at(-1));
  const empty = turns.length === 0 && !conversation.systemError;
  const sessionId = conversation.sessionId;

  return (
    <>
      <TopBar>
        <span id="session-label" class="session-label" title={sessionId ? `Session ${sessionId}` : ''}>
          {sessionId ? `session ${sessionId.slice(0, 8)}` : ''}
        </span>
        {app.usesApiKey ? (
          <button
            id="api-key-button"
            type="button"
            class="ghost-button"
            onClick={async () => {
              if (await app.askApiKey(null)) await app.reloadTree();
            }}
          >
            <Icon name="key" />
            <span>API key</span>
          </button>
        ) : null}
        <button
          id="new-chat"
          type="button"
          class="ghost-button"
          title="Start a new session"
          onClick={() => void newChat()}
        >
          <Icon name="plus" />
          <span>New chat</span>
        </button>
        {debug ? (
          <button
            id="toggle-debug"
            type="button"
            class="ghost-button"
            title="Debug view of the turns"
            aria-controls="side"
            aria-pressed={side === 'debug' ? 'true' : 'false'}
            onClick={() => toggle('debug')}
          >
            <Icon name="bug" />
            <span>Debug</span>
          </button>
        ) : null}
        <button
          id="toggle-tree"
          type="button"
          class="ghost-button"
          title="The agent's tree"
          aria-controls="side"
          aria-pressed={side === 'tree' ? 'true' : 'false'}
          onClick={() => toggle('tree')}
        >
          <Icon name="route" />
          <span>Tree</span>
        </button>
      </TopBar>
      <a class="skip-link" href="#message-input">
        Skip to the message box
      </a>
      <div class="layout">
        <main
          id="chat"
          class="chat"
          onDragOver={(event) => {
            if (!event.dataTransfer?.types.includes('Files')) return;
            event.preventDefault();
            setDropping(true);
          }}
          onDragLeave={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
          }}
          onDrop={(event) => {
            if (!event.dataTransfer?.files.length) return;
            event.preventDefault();
            setDropping(false);
            void uploads.add([...event.dataTransfer.files]);
          }}
        >
          <div
            id="log"
            class="log"
            role="log"
            aria-live="polite"
            aria-relevant="additions"
            aria-label="Conversation"
            {...(busy ? { 'aria-busy': 'true' } : {})}
            ref={log}
          >
            {turns.map((turn, index) => (
              <TurnView
                key={turn.key}
                turn={turn}
                isLast={index === turns.length - 1}
                inspected={side !== null && turn.key === inspectedKey}
                busy={busy}
                actions={{
                  onOption: (chosen, option) => {
                    conversation.chooseOption(chosen.key, option);
                    void send(option, option);
                  },
                  onInspect: (chosen) => {
                    setSide('debug');
                    inspect(chosen);
                    document.getElementById('tab-debug')?.focus();
                  },
                  onRetry: (failed) => {
                    if (failed.request) void run(failed.request, failed.user);
                  },
                  onNewChat: () => void newChat(),
                }}
              />
            ))}
            {conversation.systemError ? (
              <ErrorNotice
                system
                code={conversation.systemError.error.code}
                message={conversation.systemError.error.message}
              >
                <NoticeAction label="Retry" onClick={conversation.systemError.retry} />
              </ErrorNotice>
            ) : null}
          </div>
          <div id="empty-state" class="empty-state" hidden={!empty}>
            <Icon name="agent" class="empty-logo" />
            <h1 id="empty-title">{tree ? `Talk to ${tree.tree.name}` : 'Talk to your agent'}</h1>
            <p>Every message is routed through the tree by similarity to its chunks.</p>
            <p id="empty-debug" class="empty-debug" hidden={!debug}>
              Debug mode is on: open <strong>Debug</strong> on any turn to see the path, the callbacks and the
              timings, and <strong>Tree</strong> to see where it went.
            </p>
          </div>
          <Composer
            busy={busy}
            waiting={waiting}
            uploads={uploads}
            dropping={dropping}
            input={input}
            onSend={(text) => void send(text)}
            onStop={conversation.stop}
          />
        </main>
        <Inspector
          tab={side}
          panel={panel}
          turns={turns}
          inspected={inspected}
          highlight={highlight}
          pathLegend={pathLegend}
          selection={selection}
          onTab={openSide}
          onClose={closeSide}
          onInspect={inspect}
          onNode={(id) => {
            setSide('tree');
            selectNode(id);
          }}
          onSelect={selectNode}
          onRoute={(routed) => setPathSource({ kind: 'route', path: routed })}
        />
      </div>
    </>
  );
}
