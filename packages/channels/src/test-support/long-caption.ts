import type { ChannelSend, ChannelSendProgress } from '@treeagent/core/adapter';
import type { FakePlatformSend } from '@treeagent/core/conformance';
import { expect } from 'vitest';

/** A file whose caption is over WhatsApp's and Telegram's 1,024 characters, and over one message's 4,096. */
export const longCaptionFile: Extract<ChannelSend, { type: 'file' }> = {
  type: 'file',
  file: { id: 'f1', name: 'contratto.pdf', mimeType: 'application/pdf', origin: 'generated' },
  data: new TextEncoder().encode('%PDF contratto'),
  caption: `${'Clausola di recesso. '.repeat(230)}Fine.`,
};

/** Progress across attempts, as the server's delivery loop keeps it: each attempt skips what was taken. */
export function attempts() {
  let sent = 0;
  return {
    sent: () => sent,
    next: (): ChannelSendProgress => ({
      skip: sent,
      sent: (count) => {
        sent = count;
      },
      signal: new AbortController().signal,
    }),
  };
}

/** The platform got the file without a caption, then the caption whole, in texts within 4,096 characters. */
export function expectCaptionAfterFile(received: FakePlatformSend[], sent: number): void {
  const [document, ...texts] = received;
  expect(document).toMatchObject({ kind: 'file', fileName: 'contratto.pdf', data: longCaptionFile.data });
  expect(document!.caption).toBeUndefined();
  expect(texts.length).toBeGreaterThan(1);
  expect(texts.every((item) => item.kind === 'text' && item.text!.length <= 4096)).toBe(true);
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();
  expect(words(texts.map((item) => item.text).join(' '))).toBe(words(longCaptionFile.caption!));
  expect(sent).toBe(1 + texts.length);
}
