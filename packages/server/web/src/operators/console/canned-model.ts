import type { CannedResponseView } from '../../../../src/api-types';

/** The `/shortcut` being typed at the end of a reply (`/ref` in "Hello /ref"), or `null`. */
export function typedShortcut(reply: string): { start: number; prefix: string } | null {
  const match = /(^|\s)\/([A-Za-z0-9_-]*)$/.exec(reply);
  if (!match) return null;
  return { start: match.index + match[1]!.length, prefix: match[2]!.toLowerCase() };
}

/**
 * The canned responses a reply's `/prefix` offers for a session of `team`: those of the team and of
 * every team whose shortcut starts with the prefix, the team's own first when both have one.
 */
export function cannedMatches(
  reply: string,
  responses: readonly CannedResponseView[],
  team: string | null,
): CannedResponseView[] {
  const typed = typedShortcut(reply);
  if (!typed) return [];
  const usable = responses.filter(
    (response) =>
      (response.team === null || response.team === team) &&
      response.shortcut.toLowerCase().startsWith(typed.prefix),
  );
  const own = (response: CannedResponseView) => (response.team === null ? 1 : 0);
  return usable
    .sort((a, b) => a.shortcut.localeCompare(b.shortcut) || own(a) - own(b))
    .filter((response, index, all) => index === 0 || all[index - 1]!.shortcut !== response.shortcut);
}

/**
 * The text of a canned response with its variables filled from the session: `{{name}}` is the
 * state's `name`, `{{state.<field>}}` (dots for nested fields) any field of the state. A variable the
 * session does not have stays as written, so the operator sees what to fill in before sending.
 */
export function fillCanned(text: string, state: Record<string, unknown>): string {
  return text.replace(/\{\{\s*(name|state\.[A-Za-z0-9_.-]+)\s*\}\}/g, (written, variable: string) => {
    const path = variable === 'name' ? ['name'] : variable.slice('state.'.length).split('.');
    let value: unknown = state;
    for (const key of path)
      value =
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : written;
  });
}

/** The reply with the typed `/shortcut` replaced by the filled text of `response`. */
export function insertCanned(
  reply: string,
  response: CannedResponseView,
  state: Record<string, unknown>,
): string {
  const typed = typedShortcut(reply);
  const start = typed ? typed.start : reply.length;
  return reply.slice(0, start) + fillCanned(response.text, state);
}

/**
 * The highlighted suggestion, kept as the response's id for the reply it was chosen in: responses that
 * arrive late or re-sort keep it on the same response, and a new reply starts again at the first.
 */
export interface CannedSelection {
  reply: string;
  id: string;
}

/** The index of the highlighted match: the selection's response while the reply is unchanged, else 0. */
export function selectedIndex(
  selection: CannedSelection | null,
  reply: string,
  matches: readonly CannedResponseView[],
): number {
  if (!selection || selection.reply !== reply) return 0;
  return Math.max(
    matches.findIndex((response) => response.id === selection.id),
    0,
  );
}

/** The selection `step` matches away from the highlighted one (wrapping), or `null` without matches. */
export function moveSelection(
  selection: CannedSelection | null,
  reply: string,
  matches: readonly CannedResponseView[],
  step: 1 | -1,
): CannedSelection | null {
  if (matches.length === 0) return null;
  const index = (selectedIndex(selection, reply, matches) + step + matches.length) % matches.length;
  return { reply, id: matches[index]!.id };
}
