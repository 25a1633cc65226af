import type { HandoffTransition } from '@treeagent/core/client';
import type { TFunction } from 'i18next';

/**
 * A handoff row (`system` history entry) in the page's language, from the transition the server
 * recorded (`server` catalogs: the same notices the customer and the operator read).
 */
export function handoffText(t: TFunction, transition: HandoffTransition): string {
  const server = (key: string, values: Record<string, unknown> = {}) => t(key, { ns: 'server', ...values });
  switch (transition.type) {
    case 'start':
      return server('handoff.started', { reason: transition.reason });
    case 'claim':
      return server('handoff.joined', { name: transition.operator.name });
    case 'release':
      return server('handoff.left', { name: transition.operator.name });
    case 'end': {
      if (transition.outcome === 'user-returned') return server('handoff.userReturned');
      const name = transition.operator?.name ?? server('handoff.anOperator');
      return server(transition.outcome === 'closed' ? 'handoff.closed' : 'handoff.handedBack', { name });
    }
  }
}
