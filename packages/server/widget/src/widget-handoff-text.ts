import type { WidgetHandoffTransition } from './widget-client';
import type { WidgetTexts } from './widget-i18n';

/**
 * A handoff row in the widget's language, from the transition the server recorded (the same notices
 * the chat page shows from the `server` catalogs; the recorded `content` is the engine's English).
 */
export function handoffText(texts: Pick<WidgetTexts, 't'>, transition: WidgetHandoffTransition): string {
  switch (transition.type) {
    case 'start':
      return texts.t('handoffStarted', { reason: transition.reason });
    case 'claim':
      return texts.t('handoffJoined', { name: transition.operator.name });
    case 'release':
      return texts.t('handoffLeft', { name: transition.operator.name });
    case 'end': {
      if (transition.outcome === 'user-returned') return texts.t('handoffUserReturned');
      const name = transition.operator?.name ?? texts.t('anOperator');
      return texts.t(transition.outcome === 'closed' ? 'handoffClosed' : 'handoffHandedBack', { name });
    }
  }
}
