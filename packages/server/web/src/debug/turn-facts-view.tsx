import type { TurnFact } from '@treeagent/core/client';
import type { ComponentChildren } from 'preact';
import { formatMs, formatSimilarity } from '../components/format';
import { useT } from '../i18n/use-t';

/**
 * One turn's stored facts (docs/analytics.md): its status, the node it reached, its latency and each
 * explore decision — where it was, which child held the best chunk, the similarity against the
 * threshold, the runner-up and the margin, and whether it descended. The Review page and the
 * operator console show turns with it; `children` go after the table (the Review page's label).
 */
export function TurnFactsView({
  fact,
  nodeLabel,
  children,
}: {
  fact: TurnFact;
  nodeLabel: (id: number) => string;
  children?: ComponentChildren;
}) {
  const t = useT('debug');
  const score = (value: number | null) => formatSimilarity(value);
  return (
    <div class={`turn-facts status-${fact.status}`} data-turn-facts={String(fact.turn)}>
      <span class="turn-status">{fact.status}</span>
      {fact.errorCode ? <code>{fact.errorCode}</code> : null}
      <span class="turn-node">{fact.nodeId === null ? t('facts.noNode') : nodeLabel(fact.nodeId)}</span>
      <span class="muted">{formatMs(fact.latencyMs)}</span>
      {fact.decisions.length ? (
        <table class="data-table decisions">
          <thead>
            <tr>
              <th>{t('facts.at')}</th>
              <th>{t('facts.best')}</th>
              <th>{t('facts.similarity')}</th>
              <th>{t('facts.threshold')}</th>
              <th>{t('facts.runnerUp')}</th>
              <th>{t('facts.margin')}</th>
              <th>{t('facts.then')}</th>
            </tr>
          </thead>
          <tbody>
            {fact.decisions.map((decision, index) => (
              <tr key={index} class={`decision${decision.descended ? '' : ' is-below-threshold'}`}>
                <td>{nodeLabel(decision.nodeId)}</td>
                <td>{decision.childId === null ? '—' : nodeLabel(decision.childId)}</td>
                <td>{score(decision.similarity)}</td>
                <td>{score(decision.threshold)}</td>
                <td>{decision.runnerUpId === null ? '—' : nodeLabel(decision.runnerUpId)}</td>
                <td>{score(decision.margin)}</td>
                <td>{decision.descended ? t('facts.descend') : t('facts.stop')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {children}
    </div>
  );
}
