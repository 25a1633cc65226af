import { type HandoffTransition, handoffNotice } from '@treeagent/core/client';
import type { TFunction } from 'i18next';

/**
 * A handoff row (`system` history entry) in the page's language, from the transition the server
 * recorded (`server` catalogs: the notices the customer reads, on every channel). `staff`: the
 * operator's and the reviewer's pages, where the start also says why (its `reason`, which is for
 * them: the customer's view of the history has it blanked, `publicTransition`).
 */
export function handoffText(
  t: TFunction,
  transition: HandoffTransition,
  audience: 'customer' | 'staff' = 'customer',
): string {
  const { key, values } = handoffNotice(transition, t('handoff.anOperator', { ns: 'server' }));
  const shown = key === 'started' && audience === 'staff' ? 'startedForStaff' : key;
  return t(`handoff.${shown}`, { ns: 'server', ...values });
}
