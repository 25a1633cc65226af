import type { ComponentChildren } from 'preact';
import { formatSimilarity } from '../components/format';
import { NodeRef } from '../components/node-ref';
import { useT } from '../i18n/use-t';
import { exploreAction, STOP_ACTIONS, type TraceEvent, type TraceEventOf } from './turn-trace';

type OnNode = (id: number) => void;

/** Explore runs (decisions up to `explore-end`), with the other routing events between them. */
export function PathSection({ trace, onNode }: { trace: readonly TraceEvent[]; onNode: OnNode }) {
  const t = useT('debug');
  const items: ComponentChildren[] = [];
  let decisions = 0;
  trace.forEach((event, index) => {
    const ref = (id: number | null) => <NodeRef id={id} onSelect={onNode} />;
    switch (event.type) {
      case 'turn-start':
        if (event.fittedSpace)
          items.push(<Note key={index}>{t('path.fitted', { space: event.fittedSpace })}</Note>);
        break;
      case 'explore-decision':
        decisions++;
        items.push(<Decision key={index} event={event} onNode={onNode} />);
        break;
      case 'explore-end':
        items.push(
          <li key={index} class="path-item path-end">
            <span class="path-marker" aria-hidden="true" />
            <div>
              <span class="path-verb">{t('path.stoppedAt')} </span>
              {ref(event.nodeId)}
              <div class="path-detail">
                {t('path.direction')} <q>{event.direction}</q>
              </div>
            </div>
          </li>,
        );
        break;
      case 'after-output':
        items.push(
          <Note key={index} tone={event.outcome === 'failure' ? 'warn' : undefined}>
            <span>
              {t('path.afterOf')} {ref(event.nodeId)}
              {`: ${t('path.outcome', { outcome: event.outcome })}`}
            </span>
            {event.nodeTarget !== null ? (
              <span>
                {` → ${t('path.stepOf', { step: event.step })} `}
                {ref(event.nodeTarget)}
                {event.resume ? ` ${t('path.resume')}` : ''}
              </span>
            ) : null}
          </Note>,
        );
        break;
      case 'fail-counter':
        items.push(
          <Note key={index} tone="warn">
            {t('path.failCounter', { value: event.value, reason: event.reason, node: event.nodeId })}
          </Note>,
        );
        break;
      case 'blacklist-add':
        items.push(
          <Note key={index} tone="warn">
            {t('path.blacklisted', { kind: event.kind, ids: event.ids.join(', '), reason: event.reason })}
          </Note>,
        );
        break;
      case 'fallback':
        items.push(
          <Note key={index} tone="warn">
            {t('path.fallback', { agent: event.agentId, code: event.error.code })}
            {event.error.callback ? ` ${t('path.inCallback', { callback: event.error.callback })}` : ''}
            {event.error.nodeId !== undefined ? ` ${t('path.ofNode', { node: event.error.nodeId })}` : ''}
            {')'}
            <span> → {ref(event.nodeTarget)}</span>
          </Note>,
        );
        break;
      case 'no-match':
        items.push(
          <Note key={index} tone="warn">
            {t('path.noMatch', { agent: event.agentId })}
          </Note>,
        );
        break;
      case 'session-reset':
        items.push(
          <Note key={index} tone="warn">
            {t('path.sessionReset', { reason: event.reason })}
          </Note>,
        );
        break;
      default:
        break;
    }
  });
  return (
    <ol class="path">
      {decisions ? null : <li class="path-item path-note">{t('path.noExploration')}</li>}
      {items}
    </ol>
  );
}

function Note({ tone, children }: { tone?: 'warn' | undefined; children: ComponentChildren }) {
  return (
    <li class={`path-item path-note${tone ? ` tone-${tone}` : ''}`}>
      <span class="path-marker" aria-hidden="true" />
      <div>{children}</div>
    </li>
  );
}

function Decision({ event, onNode }: { event: TraceEventOf<'explore-decision'>; onNode: OnNode }) {
  const t = useT('debug');
  const action = exploreAction(event.action);
  const { best, threshold } = event;
  const above = best && threshold !== null ? best.similarity > threshold : null;
  const why = !best && event.action === 'below-threshold' ? t('path.noChunkInSubtree') : action.why;
  const moves = event.nextNodeId !== event.nodeId;
  return (
    <li
      class={`path-item decision action-${event.action}${STOP_ACTIONS.has(event.action) ? ' is-stop' : ''}`}
      data-node-id={String(event.nodeId)}
      data-action={event.action}
    >
      <span class="path-marker" aria-hidden="true" />
      <div class="decision-body">
        <div class="decision-head">
          <NodeRef id={event.nodeId} onSelect={onNode} />
          <span class={`action-badge badge-${event.action}`}>{action.label}</span>
          {moves ? <span class="arrow">→</span> : null}
          {moves ? <NodeRef id={event.nextNodeId} onSelect={onNode} /> : null}
        </div>
        {best ? (
          <div class="decision-chunk">
            <span class="chunk-label">{t('path.bestChunk')}</span>
            <q class="chunk-text">{best.text}</q>
            <span class="muted"> {t('path.onNode', { node: best.nodeId })}</span>
          </div>
        ) : null}
        {best && threshold !== null ? (
          <div class="decision-score">
            <SimilarityMeter similarity={best.similarity} threshold={threshold} />
            <span class={`score-text ${above ? 'is-above' : 'is-below'}`}>
              {`${formatSimilarity(best.similarity)} ${above ? '>' : '≤'} ${formatSimilarity(threshold)}`}
            </span>
            <span class="muted">
              {event.thresholdSource === 'calibrated'
                ? t('path.calibrated')
                : event.thresholdSource === 'default'
                  ? t('path.libraryDefault')
                  : t('path.similarityVsThreshold')}
            </span>
          </div>
        ) : null}
        <p class="decision-why">{why}</p>
      </div>
    </li>
  );
}

/** A bar for the similarity with a tick at the threshold. */
function SimilarityMeter({ similarity, threshold }: { similarity: number; threshold: number }) {
  const t = useT('debug');
  const clamp = (value: number) => Math.max(0, Math.min(1, value));
  return (
    <span
      class={`meter ${similarity > threshold ? 'is-above' : 'is-below'}`}
      role="img"
      aria-label={t('path.meter', {
        similarity: formatSimilarity(similarity),
        threshold: formatSimilarity(threshold),
      })}
      style={{ '--value': `${clamp(similarity) * 100}%`, '--threshold': `${clamp(threshold) * 100}%` }}
    >
      <span class="meter-fill" />
      <span class="meter-threshold" />
    </span>
  );
}
