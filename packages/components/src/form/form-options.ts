import type { ChunkDefinition, Context, LocalizedText } from '@treeagent/core';
import type { FormLanguage, SlotDefinition } from '../slots/slot-definition.js';
import type { FormMessages } from './messages.js';

/** What `onComplete` may answer: the message to send (default `messages.completed`). */
export type FormCompleteResult = string | { message: string } | undefined | void;

/**
 * A form: the slots to collect, how to ask for them and what to do with them (docs/forms.md).
 *
 * @example
 * form({
 *   name: 'prenotazione',
 *   triggers: ['vorrei prenotare un tavolo'],
 *   slots: [
 *     { name: 'date', type: 'date', question: 'Per che giorno?', dates: 'future' },
 *     { name: 'people', type: 'integer', question: 'Per quante persone?', keywords: ['persone'] },
 *   ],
 *   onComplete: (values) => `Prenotato per ${values.people} il ${values.date}.`,
 * })
 */
export interface FormOptions {
  /** Names the form's nodes and its key in the session state (`form:<name>`). Unique in the tree. */
  name: string;
  /** Signposts that lead exploration to the form ("vorrei prenotare una riparazione"). */
  triggers: (string | ChunkDefinition)[];
  slots: SlotDefinition[];
  /**
   * The form's language: of its default messages, and the one its texts given per language
   * (`question`, `reask`, `label`, `intro`) are shown in. Default: the session's language
   * (`context.language`) when it is Italian or English — a tree in several languages asks in each
   * session's language — else `it`. The parsers understand Italian and English either way.
   */
  language?: FormLanguage;
  /** Replaces default texts. */
  messages?: Partial<FormMessages>;
  /** Sent once, before the first question, when the form starts. One text, or one per language. */
  intro?: LocalizedText;
  /** Ask for confirmation with a summary before completing. Default `true`. */
  confirm?: boolean;
  /**
   * Times a slot is asked again after a reply without a valid value, before the form gives up.
   * Default 2 (so three questions in all).
   */
  maxReasks?: number;
  /**
   * Where the conversation goes when the form gives up: a node id (its before step runs). Default:
   * the message goes back to exploration from the form's anchor (reach_anchor), so the agent's
   * `fallback` answers when nothing else fits.
   */
  giveUpNode?: number;
  /**
   * A form left for other topics is dropped after this many interactions without progress. Default 10.
   */
  expireAfterTurns?: number;
  /**
   * Called once, when the form is complete (and confirmed): the values by slot name. Its answer is
   * the message sent; the form's state is removed from the session after it.
   */
  onComplete?: (
    values: Record<string, unknown>,
    context: Context,
  ) => FormCompleteResult | Promise<FormCompleteResult>;
  /**
   * LLM extraction: with a model, an `llm` node with a JSON schema reads the slots the parsers could
   * not, and its values are validated like the parsers' ones. `true` uses the tree's default model; a
   * string names a configured model. Default off.
   */
  llm?: boolean | { model?: string };
  /** Clock for relative dates ("domani"). Default `() => new Date()`. */
  now?: () => Date;
  /** IANA time zone of the user's dates and times. Default `Europe/Rome`. */
  timeZone?: string;
  /**
   * Put a summary of the form (slots, what this message gave and by which parser) into
   * `context.metadata.serverMetadata.forms[name]`, which the debug view shows. Default `true`.
   */
  debugMetadata?: boolean;
}
