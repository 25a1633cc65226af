import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { HandoffDetail, HandoffSummary } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { handoffApi } from '../api/handoff-api';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { BackToQueue } from './console/back-to-queue';
import { CannedAdmin } from './console/canned-admin';
import { PresenceAlerts } from './console/presence-alerts';
import { QueueList } from './console/queue-list';
import { SessionPanel } from './console/session-panel';
import { useUserTyping } from './console/use-user-typing';
import { OperatorBadge } from './operator-badge';
import './console.css';
import { useT } from '../i18n/use-t';

/**
 * The console once logged in: the queue on the left (`console/queue-list.tsx`), the selected session in
 * the middle and its state and notes on the right (`console/session-panel.tsx`), both kept live by the
 * console's event stream.
 */
export function ConsoleView() {
  const { api, withApiKey, setReady } = useApp();
  const t = useT('console');
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [queueFilter, setQueueFilter] = useState('');
  // null until the first answer for this tab: the tab then shows "…", not a count of 0.
  const [list, setList] = useState<HandoffSummary[] | null>(null);
  // The live queue (open handoffs) whichever tab is shown: its count on the Queue tab, and the
  // new-conversation alerts, also while the operator reads the Closed tab.
  const [openList, setOpenList] = useState<HandoffSummary[] | null>(null);
  const [queues, setQueues] = useState<string[]>([]);
  // The open conversation is the address's (`?session=`), through the app's router: a reload or a
  // shared link opens it again, the top bar's Console link and Back go where they say.
  const { query, route } = useLocation();
  const selected = query.session || null;
  const setSelected = useCallback(
    (sessionId: string | null) => {
      const url = new URL(location.href);
      if (sessionId) url.searchParams.set('session', sessionId);
      else url.searchParams.delete('session');
      route(`${url.pathname}${url.search}`, true);
    },
    [route],
  );
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

  // Each read of the queue is numbered: a slow answer never replaces a newer one's list.
  const listRead = useRef(0);
  const loadList = useCallback(async () => {
    const read = ++listRead.current;
    await run(async () => {
      const open = await handoffApi.list(api, 'open');
      const response = status === 'open' ? open : await handoffApi.list(api, status);
      if (read !== listRead.current) return;
      setOpenList(open.handoffs);
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
    setList(null);
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

  return (
    <>
      <TopBar>
        <CannedAdmin />
        <OperatorBadge />
      </TopBar>
      <main id="console-page" class={`page console${selected ? ' has-session' : ''}`}>
        <QueueList
          status={status}
          onStatus={setStatus}
          list={list}
          queues={queues}
          queueFilter={queueFilter}
          onQueueFilter={setQueueFilter}
          selected={selected}
          onSelect={setSelected}
          typing={typingUsers.typing}
          now={now}
          openCount={openList?.length ?? null}
          header={<PresenceAlerts list={openList} />}
        />
        {error ? (
          <p id="console-error" class="console-error tone-error" role="alert">
            {error}
          </p>
        ) : null}
        {selected ? <BackToQueue onBack={() => setSelected(null)} /> : null}
        {detail && selected ? (
          <SessionPanel
            key={selected}
            sessionId={selected}
            detail={detail}
            now={now}
            userTyping={typingUsers.typing.has(selected)}
            run={run}
            reload={() => loadDetail(selected)}
            onLeave={() => setSelected(null)}
          />
        ) : (
          <section class="console-session console-placeholder">
            <p class="muted">{t('pickSession')}</p>
          </section>
        )}
      </main>
    </>
  );
}
