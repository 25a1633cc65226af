import { type HandoffNoticeKey, handoffNotice } from '@treeagent/core/client';
import type { WidgetHandoffTransition } from './widget-client';
import type { WidgetKey, WidgetTexts } from './widget-i18n';

/** The widget's catalog key of each handoff notice (`widget.json`). */
const KEYS: Record<HandoffNoticeKey, WidgetKey> = {
  started: 'handoffStarted',
  joined: 'handoffJoined',
  left: 'handoffLeft',
  userReturned: 'handoffUserReturned',
  closed: 'handoffClosed',
  handedBack: 'handoffHandedBack',
};

/**
 * A handoff row in the widget's language, from the transition the server recorded (the same notices
 * the chat page shows from the `server` catalogs; the recorded `content` is the engine's English).
 */
export function handoffText(texts: Pick<WidgetTexts, 't'>, transition: WidgetHandoffTransition): string {
  const { key, values } = handoffNotice(transition, texts.t('anOperator'));
  return texts.t(KEYS[key], values);
}
