import type { OutputMessage } from '../../../protocol/output-message.js';
import type { RetrievedChunk } from '../../../protocol/retrieved-chunk.js';
import type { AfterSpecial } from '../../../tree/specials.js';

/** What executing a node produced; `Turn.applyExecution` applies it, the execute steps change nothing themselves. */
export interface ExecuteResult {
  /** Handed to the node's `after`. */
  special: AfterSpecial;
  /** The node answered the user and is not mute: the turn ends, `after` waits for the next message. */
  endsTurn: boolean;
  /** The message to send, for emit and guardrail nodes (the step loop delivers it). */
  message?: OutputMessage;
  /** The chunks a query node retrieved, for `context.retrieved`. */
  retrieved?: RetrievedChunk[];
}
