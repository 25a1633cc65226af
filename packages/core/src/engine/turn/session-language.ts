import type { SessionRecord } from '../../session/session-store.js';
import type { AgentRuntime } from '../runtime/runtime.js';

/**
 * Fewest words of a message that fixes a session's language. Below it the identifier is often wrong
 * (1–2 words: 70% right on CLINC150's English, bench/language/detection-results.json), so a short
 * first message ("hi", "ok grazie") answers in the language it looks like but fixes nothing.
 */
export const WORDS_TO_FIX_LANGUAGE = 3;

/** The language of one turn, and whether the session keeps it. */
export interface TurnLanguage {
  language: string | null;
  /** The session keeps it (from now on it is the session's language). */
  fixed: boolean;
}

/**
 * The session's language for this turn (docs/multilingual-trees.md, "The session's language"): the
 * one it has (fixed from the client's locale, or detected before) stays; a tree that declares several
 * languages otherwise detects it from this message among its languages, and keeps it when the
 * message has at least `WORDS_TO_FIX_LANGUAGE` words. `null` — the tree's default is spoken and the
 * next message tries again — when the tree declares fewer than two languages or the message shows
 * none of them ("ok", "👍").
 */
export async function sessionLanguage(
  runtime: AgentRuntime,
  record: SessionRecord,
  message: string,
): Promise<TurnLanguage> {
  if (record.language) return { language: record.language, fixed: true };
  const { languages } = runtime.tree;
  if (languages.length < 2 || message.trim() === '') return { language: null, fixed: false };
  const detected = await runtime.languageDetector.detect(message, languages);
  if (detected === null || !languages.includes(detected)) return { language: null, fixed: false };
  return { language: detected, fixed: message.trim().split(/\s+/).length >= WORDS_TO_FIX_LANGUAGE };
}
