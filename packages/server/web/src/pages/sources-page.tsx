import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/api-client';
import { type SourceChunkView, type SourceView, sourcesApi } from '../api/sources-api';
import { treeApi } from '../api/tree-api';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { formatDateTime, formatSimilarity } from '../components/format';
import { useT } from '../i18n/use-t';
import { OperatorBadge } from '../operators/operator-badge';
import { OperatorGate, useOperator } from '../operators/operator-gate';

/** The Sources page (operators read and search; admins add, refresh and delete): docs/knowledge.md. */
export function SourcesPage() {
  const t = useT('common');
  return (
    <OperatorGate requires="operator" title={t('gate.sources')}>
      <SourcesView />
    </OperatorGate>
  );
}

/** The query nodes of the tree (id and name), the targets of a source. */
function useQueryNodes(): { id: number; name: string | null }[] {
  const { api } = useApp();
  const [nodes, setNodes] = useState<{ id: number; name: string | null }[]>([]);
  useEffect(() => {
    treeApi
      .tree(api)
      .then((tree) =>
        setNodes(
          tree.nodes
            .filter((node) => node.type === 'query')
            .map((node) => ({ id: node.id, name: node.name ?? null })),
        ),
      )
      .catch(() => setNodes([]));
  }, [api]);
  return nodes;
}

function SourcesView() {
  const { api, withApiKey, setReady } = useApp();
  const t = useT('sources');
  const { operator } = useOperator();
  const admin = operator.role === 'admin';
  const nodes = useQueryNodes();
  const [sources, setSources] = useState<SourceView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  // Each read is numbered: a slow answer never replaces a newer one's list (a first read that
  // returns after the read that follows an action would otherwise hide what the action did).
  const reads = useRef(0);
  const load = useCallback(async () => {
    const read = ++reads.current;
    try {
      const { sources: listed } = await withApiKey(() => sourcesApi.list(api));
      if (read !== reads.current) return;
      setSources(listed);
      setError(null);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setReady(true);
    }
  }, [api, withApiKey, setReady]);

  useEffect(() => {
    void load();
    return () => setReady(false);
  }, [load, setReady]);

  // While a source is being read, look again every 2 s.
  useEffect(() => {
    if (!sources.some((source) => source.status === 'new' || source.status === 'refreshing')) return;
    const timer = setTimeout(() => void load(), 2000);
    return () => clearTimeout(timer);
  }, [sources, load]);

  const act = async (what: string, action: () => Promise<unknown>) => {
    setBusy(what);
    try {
      await withApiKey(action);
      setError(null);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(null);
      await load();
    }
  };

  return (
    <>
      <TopBar>
        <OperatorBadge />
      </TopBar>
      <main id="sources-page" class="page audit-page sources-page">
        <h1>{t('title')}</h1>
        {error ? (
          <p id="sources-error" class="tone-error" role="alert">
            {error}
          </p>
        ) : null}
        {admin ? <AddSource nodes={nodes} busy={busy !== null} act={act} /> : null}
        <table id="sources-table" class="audit-table">
          <thead>
            <tr>
              <th scope="col">{t('columns.source')}</th>
              <th scope="col">{t('columns.node')}</th>
              <th scope="col">{t('columns.status')}</th>
              <th scope="col">{t('columns.pages')}</th>
              <th scope="col">{t('columns.chunks')}</th>
              <th scope="col">{t('columns.lastRefresh')}</th>
              {admin ? <th scope="col">{t('columns.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => (
              <tr key={source.id} class="source-row" data-status={source.status}>
                <td>
                  <span class="muted">{source.kind}</span>{' '}
                  <span class="source-location">
                    {source.kind === 'file'
                      ? String(source.options.name ?? source.location)
                      : source.location}
                  </span>
                  {source.error ? <div class="source-error tone-error">{source.error}</div> : null}
                </td>
                <td>{source.nodeId}</td>
                <td class="source-status">{source.status}</td>
                <td class="source-pages">{source.pages}</td>
                <td class="source-chunks">{source.chunks}</td>
                <td>
                  {source.refreshedAt ? formatDateTime(source.refreshedAt) : t('never')}
                  <div class="muted">
                    {source.refreshMinutes ? t('every', { minutes: source.refreshMinutes }) : t('onDemand')}
                  </div>
                </td>
                {admin ? (
                  <td class="source-actions">
                    <button
                      type="button"
                      class="button-small source-refresh"
                      disabled={busy !== null}
                      onClick={() =>
                        void act(`refresh ${source.id}`, () => sourcesApi.refresh(api, source.id))
                      }
                    >
                      {t('refresh')}
                    </button>{' '}
                    <button
                      type="button"
                      class="button-small source-delete"
                      disabled={busy !== null}
                      onClick={() => {
                        if (
                          window.confirm(
                            t('confirmDelete', { location: source.location, count: source.chunks }),
                          )
                        )
                          void act(`delete ${source.id}`, () => sourcesApi.remove(api, source.id));
                      }}
                    >
                      {t('delete')}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {sources.length === 0 && !error ? <p class="muted">{t('none')}</p> : null}
        <SearchSources nodes={nodes} />
      </main>
    </>
  );
}

function NodeSelect({
  nodes,
  value,
  onChange,
  id,
}: {
  nodes: { id: number; name: string | null }[];
  value: number | null;
  onChange: (id: number) => void;
  id: string;
}) {
  const t = useT('sources');
  return (
    <select
      id={id}
      name="nodeId"
      value={value ?? ''}
      onChange={(event) => onChange(Number((event.currentTarget as HTMLSelectElement).value))}
    >
      {nodes.map((node) => (
        <option key={node.id} value={node.id}>
          {node.name ? `${node.name} (${node.id})` : t('node', { id: node.id })}
        </option>
      ))}
    </select>
  );
}

function AddSource({
  nodes,
  busy,
  act,
}: {
  nodes: { id: number; name: string | null }[];
  busy: boolean;
  act: (what: string, action: () => Promise<unknown>) => Promise<void>;
}) {
  const { api } = useApp();
  const t = useT('sources');
  const [location, setLocation] = useState('');
  const [kind, setKind] = useState<'crawl' | 'sitemap'>('crawl');
  const [every, setEvery] = useState('');
  const [nodeId, setNodeId] = useState<number | null>(null);
  const node = nodeId ?? nodes[0]?.id ?? null;
  return (
    <form
      id="source-add"
      class="audit-filters source-add"
      onSubmit={(event) => {
        event.preventDefault();
        if (node === null) return;
        void act('add', () =>
          sourcesApi.add(api, {
            kind,
            location: location.trim(),
            nodeId: node,
            refreshMinutes: every ? Number(every) : null,
          }),
        ).then(() => setLocation(''));
      }}
    >
      <label class="audit-filter">
        <span>{t('add.location')}</span>
        <input
          name="location"
          type="url"
          required
          placeholder="https://help.example.com/"
          value={location}
          onInput={(event) => setLocation((event.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label class="audit-filter">
        <span>{t('add.read')}</span>
        <select
          name="kind"
          value={kind}
          onChange={(event) =>
            setKind((event.currentTarget as HTMLSelectElement).value as 'crawl' | 'sitemap')
          }
        >
          <option value="crawl">{t('add.crawl')}</option>
          <option value="sitemap">{t('add.sitemap')}</option>
        </select>
      </label>
      <label class="audit-filter" htmlFor="source-node">
        <span>{t('queryNode')}</span>
        <NodeSelect id="source-node" nodes={nodes} value={node} onChange={setNodeId} />
      </label>
      <label class="audit-filter">
        <span>{t('add.every')}</span>
        <input
          name="every"
          type="number"
          min="5"
          placeholder={t('onDemand')}
          value={every}
          onInput={(event) => setEvery((event.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="button-primary button-small" disabled={busy || node === null}>
        {t('add.submit')}
      </button>
      <label class="audit-filter">
        <span>{t('add.upload')}</span>
        <input
          id="source-file"
          type="file"
          accept=".txt,.md,.markdown,.pdf,.html,.htm,.docx"
          disabled={busy || node === null}
          onChange={(event) => {
            const input = event.currentTarget as HTMLInputElement;
            const file = input.files?.[0];
            if (file && node !== null)
              void act('upload', () => sourcesApi.upload(api, file, node)).then(() => (input.value = ''));
          }}
        />
      </label>
    </form>
  );
}

function SearchSources({ nodes }: { nodes: { id: number; name: string | null }[] }) {
  const { api, withApiKey } = useApp();
  const t = useT('sources');
  const [message, setMessage] = useState('');
  const [nodeId, setNodeId] = useState<number | null>(null);
  const [chunks, setChunks] = useState<SourceChunkView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const node = nodeId ?? nodes[0]?.id ?? null;
  return (
    <section id="source-search" class="source-search">
      <h2>{t('search.title')}</h2>
      <form
        class="audit-filters"
        onSubmit={(event) => {
          event.preventDefault();
          if (node === null || !message.trim()) return;
          withApiKey(() => sourcesApi.search(api, message.trim(), node))
            .then((result) => {
              setChunks(result.chunks);
              setError(null);
            })
            .catch((caught) => setError(messageOf(caught)));
        }}
      >
        <label class="audit-filter">
          <span>{t('search.message')}</span>
          <input
            name="message"
            value={message}
            onInput={(event) => setMessage((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <label class="audit-filter" htmlFor="search-node">
          <span>{t('queryNode')}</span>
          <NodeSelect id="search-node" nodes={nodes} value={node} onChange={setNodeId} />
        </label>
        <button type="submit" class="button-small">
          {t('search.submit')}
        </button>
      </form>
      {error ? <p class="tone-error">{error}</p> : null}
      {chunks ? (
        <ol class="source-results">
          {chunks.length === 0 ? <li class="muted">{t('search.nothing')}</li> : null}
          {chunks.map((chunk) => (
            <li key={String(chunk.id)} class="source-result">
              {chunk.url && /^https?:\/\//i.test(chunk.url) ? (
                <a class="source-result-title" href={chunk.url} target="_blank" rel="noopener noreferrer">
                  {chunk.title ?? chunk.url}
                </a>
              ) : (
                <span class="source-result-title">{chunk.title ?? chunk.source ?? ''}</span>
              )}{' '}
              <span class="muted">
                {chunk.heading ? `${chunk.heading} · ` : ''}
                {chunk.similarity === null ? '' : formatSimilarity(chunk.similarity)}
              </span>
              <p class="source-result-text">{chunk.text}</p>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
