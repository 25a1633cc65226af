import type { StoredTurnFact } from '@treeagent/core/client';
import type { TranscriptResponse } from '../../../src/api-types';
import { handoffText } from '../chat/handoff-text';
import { TurnFactsView } from '../debug/turn-facts-view';
import { useT } from '../i18n/use-t';

/**
 * A conversation on the Review page, turn by turn: who said what — the user, the agent, an operator
 * by name, a handoff event in the page's language — and each turn's facts, with the label a team
 * lead gives the turn.
 */
export function Transcript({
  transcript,
  named,
  nodeLabel,
  onLabel,
}: {
  transcript: TranscriptResponse;
  named: { id: number; name: string | null }[];
  nodeLabel: (id: number) => string;
  onLabel: (fact: StoredTurnFact, label: string) => void;
}) {
  const turns = [
    ...new Set([
      ...transcript.history.map((entry) => entry.turn),
      ...transcript.facts.map((fact) => fact.turn),
    ]),
  ].sort((a, b) => a - b);
  const t = useT('review');
  return (
    <section id="transcript" class="transcript" aria-label={t('conversation', { id: transcript.sessionId })}>
      <h2>{t('conversation', { id: transcript.sessionId })}</h2>
      {turns.map((turn) => (
        <div key={turn} class="transcript-turn" data-turn={turn}>
          {transcript.history
            .filter((entry) => entry.turn === turn)
            .map((entry, index) => (
              <p
                key={index}
                class={`transcript-message transcript-${entry.operator ? 'operator' : entry.role}`}
              >
                <span class="transcript-role">
                  {entry.role === 'user'
                    ? t('user')
                    : entry.role === 'system'
                      ? t('event')
                      : entry.operator
                        ? entry.operator.name
                        : t('agent')}
                </span>{' '}
                {entry.role === 'system' && entry.handoff
                  ? handoffText(t, entry.handoff, 'staff')
                  : (entry.content ?? '')}
              </p>
            ))}
          {transcript.facts
            .filter((fact) => fact.turn === turn)
            .map((fact) => (
              <TurnFactsView key={fact.at} fact={fact} nodeLabel={nodeLabel}>
                <label class="turn-label">
                  {t('shouldHaveReached')}
                  <select
                    aria-label={t('labelOfTurn', { turn })}
                    value={fact.label ?? ''}
                    onChange={(e) => onLabel(fact, e.currentTarget.value)}
                  >
                    <option value="">{t('noLabel')}</option>
                    <option value="none">{t('outOfScope')}</option>
                    {named.map((node) => (
                      <option key={node.id} value={node.name!}>
                        {node.name}
                      </option>
                    ))}
                  </select>
                </label>
              </TurnFactsView>
            ))}
        </div>
      ))}
    </section>
  );
}
