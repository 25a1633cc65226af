import type { SessionRecord } from '../../session/session-store.js';
import type { AgentRuntime } from '../runtime/runtime.js';

/**
 * The session's language for this turn (docs/multilingual-trees.md, "The session's language"): the
 * one it has (fixed from the client's locale, or detected before) stays; a tree that declares several
 * languages otherwise detects it from this message among its languages. `null` — the tree's default
 * is spoken and the next message tries again — when the tree declares fewer than two languages or the
 * message shows none of them ("ok", "👍").
 */
export async function sessionLanguage(
  runtime: AgentRuntime,
  record: SessionRecord,
  message: string,
): Promise<string | null> {
  if (record.language) return record.language;
  const { languages } = runtime.tree;
  if (languages.length < 2 || message.trim() === '') return null;
  const detected = await runtime.languageDetector.detect(message, languages);
  return detected !== null && languages.includes(detected) ? detected : null;
}
