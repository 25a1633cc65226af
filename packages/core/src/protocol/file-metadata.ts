/** Where a file of the conversation came from. */
export type FileOrigin = 'chat' | 'rag' | 'generated';

/**
 * A file of the conversation: an attachment sent by the user, a file retrieved by a query node,
 * or a file made in code. The bytes live in a `FileStore`; this is what callbacks and messages carry.
 */
export interface FileMetadata {
  /** Identifier of the file in its store. */
  id: string;
  /** Original file name, with extension (`{{name.ext}}` placeholders refer to it). */
  name: string;
  /** MIME type, e.g. `application/pdf`. */
  mimeType: string;
  /** Size in bytes, when known. */
  size?: number;
  origin: FileOrigin;
  /** Where a client can download it, when the server exposes it. */
  url?: string;
  /** Session the file belongs to. */
  sessionId?: string;
}
