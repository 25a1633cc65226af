import { type HandoffTransition, handoffNotice } from '@treeagent/core/client';
import type { TFunction } from 'i18next';

/**
 * A handoff row (`system` history entry) in the page's language, from the transition the server
 * recorded (`server` catalogs: the same notices the customer and the operator read).
 */
export function handoffText(t: TFunction, transition: HandoffTransition): string {
  const { key, values } = handoffNotice(transition, t('handoff.anOperator', { ns: 'server' }));
  return t(`handoff.${key}`, { ns: 'server', ...values });
}
