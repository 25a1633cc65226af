import type { TreeDocument } from '@treeagent/core/client';
import { useEffect, useState } from 'preact/hooks';
import type {
  EditorAmbiguityResponse,
  EditorRouteResponse,
  EditorSuggestionsResponse,
} from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { editorApi } from '../api/editor-api';
import { useApp } from '../app/app-context';
import { formatSimilarity } from '../components/format';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';

export interface RoutingPanelProps {
  document: TreeDocument;
  /** The draft builds: routing needs a valid tree. */
  valid: boolean;
  selected: number | null;
  nameOf(id: number): string;
  /** How many labelled utterances the server has for suggestions. */
  utterances: number;
  route: EditorRouteResponse | null;
  onRoute(route: EditorRouteResponse | null): void;
  suggestions: EditorSuggestionsResponse | null;
  onSuggestions(suggestions: EditorSuggestionsResponse | null): void;
  onApplyThreshold(nodeId: number, threshold: number): void;
  onSelect(id: number): void;
}

/**
 * Routing while editing: a message routed through the draft (the path, each decision with its best
 * chunk, similarity and threshold, the heat map on the graph), re-routed after every edit; the
 * selected node's closest sibling chunks; thresholds suggested from labelled utterances, applied
 * with one click.
 */
export function RoutingPanel(props: RoutingPanelProps) {
  const { api } = useApp();
  const t = useT('editor');
  const [text, setText] = useState('');
  const [routed, setRouted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [ambiguity, setAmbiguity] = useState<EditorAmbiguityResponse | null>(null);
  const [suggesting, setSuggesting] = useState(false);
  const { document, valid, selected, onRoute } = props;

  // The routed message follows the draft: every edit routes it again.
  useEffect(() => {
    if (!routed || !valid) return;
    let live = true;
    editorApi
      .route(api, document, routed)
      .then((result) => {
        if (live) {
          onRoute(result);
          setError(null);
        }
      })
      .catch((caught: unknown) => live && setError(messageOf(caught)));
    return () => {
      live = false;
    };
  }, [api, document, routed, valid, onRoute]);

  useEffect(() => {
    setAmbiguity(null);
    if (selected === null || !valid) return;
    let live = true;
    editorApi
      .ambiguity(api, document, selected)
      .then((result) => live && setAmbiguity(result))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, document, selected, valid]);

  const route = props.route;
  return (
    <section id="routing-panel" class="routing-panel" aria-label={t('routing.label')}>
      <form
        class="route-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) setRouted(text.trim());
        }}
      >
        <input
          id="route-text"
          placeholder={t('routing.placeholder')}
          aria-label={t('routing.message')}
          value={text}
          onInput={(event) => setText((event.target as HTMLInputElement).value)}
        />
        <button type="submit" id="route-button" class="button-small" disabled={!valid || !text.trim()}>
          {t('routing.route')}
        </button>
        {route ? (
          <button
            type="button"
            class="button-small"
            onClick={() => {
              setRouted('');
              onRoute(null);
            }}
          >
            {t('routing.clear')}
          </button>
        ) : null}
      </form>
      {!valid ? <p class="note">{t('routing.needsValid')}</p> : null}
      {error ? <p class="finding is-error">{error}</p> : null}
      {route ? (
        <div id="route-result" class="route-result">
          <p class="route-end">
            {route.route.noMatch ? (
              markup(t('routing.noMatch', { node: props.nameOf(route.route.nodeId) }))
            ) : (
              <>
                {t('routing.answersFrom')} <strong id="route-node">{props.nameOf(route.route.nodeId)}</strong>
              </>
            )}
          </p>
          <table class="decisions">
            <thead>
              <tr>
                <th>{t('routing.at')}</th>
                <th>{t('routing.bestChunk')}</th>
                <th>{t('routing.similarity')}</th>
                <th>{t('routing.threshold')}</th>
                <th>{t('routing.then')}</th>
              </tr>
            </thead>
            <tbody>
              {route.route.decisions.map((decision, index) => (
                <tr key={index} class={`decision is-${decision.action}`}>
                  <td>
                    <button type="button" class="link" onClick={() => props.onSelect(decision.nodeId)}>
                      {props.nameOf(decision.nodeId)}
                    </button>
                  </td>
                  <td>{decision.best ? `“${decision.best.text}”` : '—'}</td>
                  <td>{decision.best ? formatSimilarity(decision.best.similarity) : '—'}</td>
                  <td>
                    {decision.threshold === null ? '—' : formatSimilarity(decision.threshold)}
                    {decision.thresholdSource ? <span class="muted"> {decision.thresholdSource}</span> : null}
                  </td>
                  <td>
                    {decision.action} → {props.nameOf(decision.nextNodeId)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {selected !== null && ambiguity?.pairs.length ? (
        <div id="ambiguity" class="ambiguity">
          <h3>{t('routing.closest', { node: props.nameOf(selected) })}</h3>
          <ul>
            {ambiguity.pairs.map((pair, index) => (
              <li key={index} class={pair.similarity >= 0.9 ? 'is-ambiguous' : ''}>
                <span class="similarity">{formatSimilarity(pair.similarity)}</span> “{pair.chunk}” ↔ “
                {pair.otherChunk}” (
                <button type="button" class="link" onClick={() => props.onSelect(pair.otherNodeId)}>
                  {props.nameOf(pair.otherNodeId)}
                </button>
                )
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div class="suggestions">
        <button
          type="button"
          id="suggest-thresholds"
          class="button-small"
          disabled={!valid || props.utterances === 0 || suggesting}
          title={
            props.utterances
              ? t('routing.fromUtterances', { count: props.utterances })
              : t('routing.noUtterances')
          }
          onClick={async () => {
            setSuggesting(true);
            try {
              props.onSuggestions(await editorApi.suggestions(api, document));
            } catch (caught) {
              setError(messageOf(caught));
            } finally {
              setSuggesting(false);
            }
          }}
        >
          {suggesting
            ? t('routing.evaluating')
            : props.utterances
              ? t('routing.suggestWith', { count: props.utterances })
              : t('routing.suggest')}
        </button>
        {props.suggestions ? (
          <table id="suggestion-table" class="decisions">
            <thead>
              <tr>
                <th>{t('routing.node')}</th>
                <th>{t('routing.now')}</th>
                <th>{t('routing.suggested')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {props.suggestions.suggestions.map((suggestion) => (
                <tr key={suggestion.nodeId}>
                  <td>{props.nameOf(suggestion.nodeId)}</td>
                  <td>
                    {suggestion.current} <span class="muted">{suggestion.currentSource}</span>
                  </td>
                  <td>{suggestion.suggested ?? <span class="muted">{suggestion.reason}</span>}</td>
                  <td>
                    {suggestion.suggested !== null ? (
                      <button
                        type="button"
                        class="button-small apply-threshold"
                        data-node-id={suggestion.nodeId}
                        onClick={() => props.onApplyThreshold(suggestion.nodeId, suggestion.suggested!)}
                      >
                        {t('routing.apply')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </section>
  );
}
