import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { MessageRequest } from '../../../src/api-types';
import { useApp } from '../app/app-context';
import { CallbackRequestForm } from '../chat/callback-request';
import { Composer } from '../chat/composer';
import { conversationTest, type RecorderTree } from '../chat/conversation-test';
import { CustomerHeader } from '../chat/customer-header';
import { DeveloperBar } from '../chat/developer-bar';
import { HandoffBar } from '../chat/handoff-views';
import { Inspector } from '../chat/inspector';
import { SatisfactionPrompt } from '../chat/satisfaction-prompt';
import { customerErrorText, isFollowup, type Turn, type UserMessage, waitsForUser } from '../chat/turn-model';
import { TurnView } from '../chat/turn-view';
import { useConversation } from '../chat/use-conversation';
import { useInspector } from '../chat/use-inspector';
import { useLiveSession } from '../chat/use-live-session';
import { useTypingSignal } from '../chat/use-typing-signal';
import { useUploads } from '../chat/use-uploads';
import { Icon } from '../components/icon';
import { ErrorNotice, NoticeAction } from '../components/notice';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';

/**
 * The chat page: the conversation and the message box; in the developer's view (`treeagent dev`)
 * also the pages' links, the session, "Save as test" and the inspector (turn debug and tree).
 */
export function ChatPage() {
  const app = useApp();
  const t = useT('chat');
  const { assistantName, debug, tree, treeStatus, view } = app;
  const customer = view !== 'developer';
  const conversation = useConversation();
  const { turns, busy } = conversation;
  const uploads = useUploads(conversation.ensureSession);
  const inspector = useInspector(turns, conversation.restoredNode);
  const [dropping, setDropping] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const live = useRef(debug);
  live.current = debug;
  // Operators' messages, typing and the handoff reach the page without the user sending anything.
  const liveSession = useLiveSession(conversation.liveFrom, (entry) => {
    if (isFollowup(entry)) conversation.addFollowup(entry);
  });
  // …and, while people have the session, the user's typing reaches the operators.
  const typingSignal = useTypingSignal(liveSession.handoff !== null);

  // Start (or resume) the session once the tree has loaded: one API-key prompt, not two.
  const started = useRef(false);
  useEffect(() => {
    if (treeStatus === 'loading' || view === null || started.current) return;
    started.current = true;
    void conversation.startSession().then(() => {
      app.setReady(true);
      input.current?.focus();
    });
  }, [treeStatus, view, conversation.startSession, app.setReady]);
  useEffect(() => () => app.setReady(false), [app.setReady]);

  useLayoutEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [turns]);

  const run = async (request: MessageRequest, user: UserMessage) => {
    const turn = await conversation.runTurn(request, user);
    if (!turn) return;
    inspector.turnEnded(turn, live.current);
    const focusInSide = panel.current?.contains(document.activeElement) ?? false;
    if (waitsForUser(turn) || !focusInSide) input.current?.focus({ preventScroll: true });
  };

  const send = async (text: string, selectedOption?: string) => {
    if (busy) return;
    if (!(await conversation.ensureSession())) return;
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
    inspector.reset();
    await conversation.startSession({ fresh: true });
    input.current?.focus();
  };

  const waiting = waitsForUser(turns.at(-1));
  const empty = turns.length === 0 && !conversation.systemError;
  const sessionId = conversation.sessionId;

  return (
    <>
      {customer ? (
        <CustomerHeader onNewChat={() => void newChat()} />
      ) : (
        <DeveloperBar
          sessionId={sessionId}
          canSave={turns.length > 0 && !busy}
          inspectorTab={inspector.tab}
          onNewChat={() => void newChat()}
          onSave={() => downloadConversationTest(turns, tree)}
          onToggle={inspector.toggle}
        />
      )}
      <a class="skip-link" href="#message-input">
        {t('skipToMessageBox')}
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
            aria-label={t('conversation')}
            {...(busy ? { 'aria-busy': 'true' } : {})}
            ref={log}
          >
            {turns.map((turn, index) => (
              <TurnView
                key={turn.key}
                turn={turn}
                isLast={index === turns.length - 1}
                inspected={inspector.tab !== null && turn.key === inspector.inspected?.key}
                busy={busy}
                customer={customer}
                {...(liveSession.handoff?.returnOption
                  ? { hiddenOption: liveSession.handoff.returnOption }
                  : {})}
                actions={{
                  onOption: (chosen, option) => {
                    conversation.chooseOption(chosen.key, option);
                    void send(option, option);
                  },
                  onInspect: (chosen) => {
                    inspector.open('debug');
                    inspector.inspect(chosen);
                    document.getElementById('tab-debug')?.focus();
                  },
                  onRetry: (failed) => {
                    if (!failed.request || failed.retried || busy) return;
                    conversation.markRetried(failed.key);
                    void run(failed.request, failed.user);
                  },
                  onNewChat: () => void newChat(),
                }}
              />
            ))}
            {conversation.systemError ? (
              <ErrorNotice
                system
                customer={customer}
                code={conversation.systemError.error.code}
                message={
                  customer
                    ? customerErrorText(conversation.systemError.error)
                    : conversation.systemError.error.message
                }
              >
                <NoticeAction label={t('retry')} onClick={conversation.systemError.retry} />
              </ErrorNotice>
            ) : null}
          </div>
          <div id="empty-state" class="empty-state" hidden={!empty}>
            <Icon name="agent" class="empty-logo" />
            <h1 id="empty-title">
              {customer && assistantName
                ? t('talkTo', { name: assistantName })
                : tree
                  ? t('talkTo', { name: tree.tree.name })
                  : t('talkToAssistant')}
            </h1>
            <p>{customer ? t('writeYourQuestion') : t('everyMessageRouted')}</p>
            <p id="empty-debug" class="empty-debug" hidden={!debug}>
              {markup(t('debugModeOn'))}
            </p>
          </div>
          <HandoffBar
            handoff={liveSession.handoff}
            typing={liveSession.typing}
            onReturn={(option) => void send(option, option)}
          />
          <SatisfactionPrompt handoff={liveSession.handoff} />
          <CallbackRequestForm handoff={liveSession.handoff} />
          <Composer
            busy={busy}
            waiting={waiting}
            handoff={liveSession.handoff}
            uploads={uploads}
            dropping={dropping}
            input={input}
            onSend={(text) => void send(text)}
            onStop={conversation.stop}
            onTyping={typingSignal}
          />
        </main>
        {customer ? null : (
          <Inspector
            tab={inspector.tab}
            panel={panel}
            turns={turns}
            inspected={inspector.inspected}
            highlight={inspector.highlight}
            pathLegend={inspector.pathLegend}
            selection={inspector.selection}
            onTab={inspector.open}
            onClose={inspector.close}
            onInspect={inspector.inspect}
            onNode={(id) => {
              inspector.open('tree');
              inspector.selectNode(id);
            }}
            onSelect={inspector.selectNode}
            onRoute={inspector.routed}
          />
        )}
      </div>
    </>
  );
}

/** Saves the conversation as `chat-<date>.yaml`, a conversation test expecting what the agent answered. */
function downloadConversationTest(turns: readonly Turn[], tree: RecorderTree | null): void {
  const stamp = new Date().toISOString().slice(0, 16).replace(':', '-');
  const yaml = conversationTest(turns, tree, `chat ${stamp.replace('T', ' ')}`);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
  link.download = `chat-${stamp}.yaml`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
