import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FileMetadata } from '@treeagent/core';

/** The card that asks a Teams user to accept a file (a bot can send no other file but an image). */
export const FILE_CONSENT_CARD = 'application/vnd.microsoft.teams.card.file.consent';
/** The card that shows a file once it is uploaded to the user's OneDrive. */
export const FILE_INFO_CARD = 'application/vnd.microsoft.teams.card.file.info';

/** What the consent card carries and Teams gives back: the file, its conversation, a signature. */
export interface FileConsentContext {
  fileId: string;
  conversationId: string;
  signature: string;
}

/** Teams' `fileConsent/invoke` value when the user accepts or declines. */
export interface FileConsentValue {
  type?: string;
  action?: 'accept' | 'decline';
  context?: Partial<FileConsentContext>;
  uploadInfo?: {
    name?: string;
    uploadUrl?: string;
    contentUrl?: string;
    uniqueId?: string;
    fileType?: string;
  };
}

/** The consent card for `file` in `conversationId`, its context signed with `secret`. */
export function fileConsentCard(
  file: FileMetadata,
  size: number,
  conversationId: string,
  secret: string,
  description: string,
): Record<string, unknown> {
  const context: FileConsentContext = {
    fileId: file.id,
    conversationId,
    signature: signConsent(secret, file.id, conversationId),
  };
  return {
    contentType: FILE_CONSENT_CARD,
    name: file.name,
    content: { description, sizeInBytes: size, acceptContext: context, declineContext: context },
  };
}

/**
 * The file of an accepted consent, or why it is refused: the context must be the one this channel
 * signed for this conversation (a client cannot point the upload at another file).
 */
export function acceptedFile(
  value: FileConsentValue,
  conversationId: string,
  secret: string,
):
  | {
      fileId: string;
      uploadUrl: string;
      contentUrl: string;
      name: string;
      uniqueId: string;
      fileType: string;
    }
  | string {
  const context = value.context ?? {};
  const info = value.uploadInfo ?? {};
  if (!context.fileId || !context.signature || context.conversationId !== conversationId)
    return 'the consent is not for a file of this conversation';
  const expected = Buffer.from(signConsent(secret, context.fileId, conversationId));
  const given = Buffer.from(context.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return 'the consent context is not one this channel signed';
  if (!info.uploadUrl || !info.contentUrl || !info.name)
    return 'the accepted consent has no uploadInfo (uploadUrl, contentUrl, name)';
  return {
    fileId: context.fileId,
    uploadUrl: info.uploadUrl,
    contentUrl: info.contentUrl,
    name: info.name,
    uniqueId: info.uniqueId ?? '',
    fileType: info.fileType ?? '',
  };
}

function signConsent(secret: string, fileId: string, conversationId: string): string {
  return createHmac('sha256', secret)
    .update(`teams-file-consent:${fileId}:${conversationId}`)
    .digest('base64url');
}
