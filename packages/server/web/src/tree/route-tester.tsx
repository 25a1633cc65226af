import { useState } from 'preact/hooks';
import type { RouteResponse } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { treeApi } from '../api/tree-api';
import { useApp } from '../app/app-context';
import { NodeRef } from '../components/node-ref';
import { pathOf } from '../debug/turn-trace';
import { useT } from '../i18n/use-t';

/**
 * `POST /api/v1/route` (debug only): where a text would go on a fresh session. The path it took
 * goes to `onRoute`, to be highlighted.
 */
export function RouteTester(props: { onRoute(path: number[]): void; onSelect(id: number): void }) {
  const { api, withApiKey } = useApp();
  const t = useT('tree');
  const [text, setText] = useState('');
  const [result, setResult] = useState<
    { kind: 'routing' } | { kind: 'done'; route: RouteResponse } | { kind: 'failed'; error: string } | null
  >(null);
  const route = async (event: Event) => {
    event.preventDefault();
    if (!text.trim()) return;
    setResult({ kind: 'routing' });
    try {
      const response = await withApiKey(() => treeApi.route(api, text));
      props.onRoute(pathOf(response.decisions));
      setResult({ kind: 'done', route: response });
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'ERROR';
      setResult({ kind: 'failed', error: `${code}: ${messageOf(error)}` });
    }
  };
  return (
    <>
      <form id="route-form" class="route-form" onSubmit={route}>
        <label for="route-input" class="sr-only">
          {t('route.label')}
        </label>
        <input
          id="route-input"
          type="text"
          placeholder={t('route.placeholder')}
          autocomplete="off"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit" class="ghost-button">
          {t('route.submit')}
        </button>
      </form>
      {result ? (
        <div id="route-result" class="route-result" aria-live="polite">
          {result.kind === 'routing' ? <p class="muted">{t('route.routing')}</p> : null}
          {result.kind === 'failed' ? <p class="tone-error">{result.error}</p> : null}
          {result.kind === 'done' ? (
            <p>
              {result.route.noMatch ? (
                <strong class="tone-warn">{t('route.noMatch')}</strong>
              ) : (
                <strong>{t('route.goesTo')} </strong>
              )}
              {result.route.noMatch ? ` ${t('route.stopsOn')} ` : ''}
              <NodeRef id={result.route.nodeId} onSelect={props.onSelect} />
              <span class="muted">{` · ${t('route.decisions', { count: result.route.decisions.length })}`}</span>
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
