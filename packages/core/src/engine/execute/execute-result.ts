import type { OutputMessage } from '../../protocol/output-message.js';
import type { AfterSpecial } from '../../tree/specials.js';

/** What executing a node produced. */
export interface ExecuteResult {
  /** Handed to the node's `after`. */
  special: AfterSpecial;
  /** The node answered the user and is not mute: the turn ends, `after` waits for the next message. */
  endsTurn: boolean;
  /** The message sent, for emit and guardrail nodes. */
  message?: OutputMessage;
}
