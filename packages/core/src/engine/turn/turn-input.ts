import type { FileMetadata } from '../../protocol/file-metadata.js';

/** The user's message and what travels with it; read-only: the agent builds a redacted copy rather than changing it. */
export interface TurnInput {
  readonly message: string;
  readonly attachments: FileMetadata[];
  readonly clientMetadata: Record<string, unknown>;
  readonly selectedOption: string | null;
  readonly signal?: AbortSignal;
}
