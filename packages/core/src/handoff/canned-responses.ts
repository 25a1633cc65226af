/** A prepared answer operators insert in their reply with its `/shortcut`. */
export interface CannedResponse {
  /** Stable id (the server makes one); saving with the same id replaces the response. */
  id: string;
  /** What operators type after `/` to find it: 1–32 letters, digits, `-` or `_`, without the slash. */
  shortcut: string;
  /** The team (handoff queue) whose operators see it; `null`: every team. */
  team: string | null;
  /** The text, with `{{name}}` and `{{state.<field>}}` filled from the session when inserted. */
  text: string;
  /** When it was last saved. */
  updatedAt: Date;
}

/**
 * Where the canned responses of a help desk live, shared by every server process. The in-memory
 * implementation below serves one process; `openSqlite(...).cannedResponses` and
 * `PostgresCannedResponses` keep them. A shortcut is unique within its team: saving another
 * response with the same shortcut and team replaces nothing and fails.
 */
export interface CannedResponses {
  /** Adds or replaces (by id) a response; rejects one whose shortcut and team another id has. */
  save(response: CannedResponse): Promise<void>;
  /** Every response, by shortcut then team (every team's first). */
  list(): Promise<CannedResponse[]>;
  /** Removes a response; `false` when there was none with this id. */
  remove(id: string): Promise<boolean>;
}

/** The error of a shortcut already taken in its team, the same from every implementation (`name` `DuplicateShortcutError`). */
export function duplicateShortcut(response: Pick<CannedResponse, 'shortcut' | 'team'>): Error {
  const error = new Error(
    `The shortcut "/${response.shortcut}" is already used ${
      response.team === null ? 'for every team' : `in team "${response.team}"`
    }: choose another shortcut or edit that response.`,
  );
  error.name = 'DuplicateShortcutError';
  return error;
}

/** Sorts responses by shortcut, then team (every team's first). */
export function sortCanned(responses: CannedResponse[]): CannedResponse[] {
  const key = (response: CannedResponse) => `${response.shortcut}\u0000${response.team ?? ''}`;
  return responses.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Canned responses in process memory (one process; lost on restart). */
export class InMemoryCannedResponses implements CannedResponses {
  readonly #responses = new Map<string, CannedResponse>();

  async save(response: CannedResponse): Promise<void> {
    for (const other of this.#responses.values())
      if (other.id !== response.id && other.shortcut === response.shortcut && other.team === response.team)
        throw duplicateShortcut(response);
    this.#responses.set(response.id, { ...response });
  }

  async list(): Promise<CannedResponse[]> {
    return sortCanned([...this.#responses.values()].map((response) => ({ ...response })));
  }

  async remove(id: string): Promise<boolean> {
    return this.#responses.delete(id);
  }
}
