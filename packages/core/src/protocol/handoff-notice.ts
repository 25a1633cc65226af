/**
 * Which notice a handoff transition shows the customer, apart from its wording: the chat page, the
 * widget and the messaging channels each read the key in their own catalog, in the customer's
 * language (the engine records the transition's `content` in English only).
 */
export type HandoffNoticeKey = 'started' | 'joined' | 'left' | 'userReturned' | 'closed' | 'handedBack';

/** A notice to write: its catalog key and the values of its placeholders. */
export interface HandoffNotice {
  key: HandoffNoticeKey;
  /** `{{reason}}` of `started`, `{{name}}` of the others but `userReturned`. */
  values: { reason?: string; name?: string };
}

/**
 * The shape of a recorded transition that the notice needs — `HandoffTransition` fits it, and so does
 * the lighter copy a browser client keeps.
 */
export type HandoffNoticeSource =
  | { type: 'start'; reason: string }
  | { type: 'claim' | 'release'; operator: { name: string } }
  | { type: 'end'; outcome: string; operator?: { name: string } | null };

/**
 * The notice of `transition`. `anOperator` names the operator when none is recorded (a conversation
 * closed by the system): the caller's "an operator" in its language.
 *
 * @example
 * const { key, values } = handoffNotice(entry.handoff, t('handoff.anOperator'));
 * row.text = t(`handoff.${key}`, values);
 */
export function handoffNotice(transition: HandoffNoticeSource, anOperator: string): HandoffNotice {
  switch (transition.type) {
    case 'start':
      return { key: 'started', values: { reason: transition.reason } };
    case 'claim':
      return { key: 'joined', values: { name: transition.operator.name } };
    case 'release':
      return { key: 'left', values: { name: transition.operator.name } };
    case 'end': {
      if (transition.outcome === 'user-returned') return { key: 'userReturned', values: {} };
      const name = transition.operator?.name ?? anOperator;
      return { key: transition.outcome === 'closed' ? 'closed' : 'handedBack', values: { name } };
    }
  }
}
