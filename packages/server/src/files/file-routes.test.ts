import type { FileMetadata } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';

type App = ReturnType<typeof testApp>['app'];
type Session = { sessionId: string; token: string };

function upload(app: App, session: Session, file: Blob | string, name = 'receipt.pdf') {
  const form = new FormData();
  form.append('file', typeof file === 'string' ? new Blob([file], { type: 'application/pdf' }) : file, name);
  return app.request(`/api/v1/sessions/${session.sessionId}/files`, {
    method: 'POST',
    headers: { 'X-Session-Token': session.token },
    body: form,
  });
}

function download(app: App, session: Session, fileId: string, token = session.token) {
  return app.request(`/api/v1/sessions/${session.sessionId}/files/${fileId}`, {
    headers: { 'X-Session-Token': token },
  });
}

describe('session files', () => {
  it('uploads a file (origin chat, the session id, a download url) and downloads it', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const response = await upload(app, session, '%PDF-1.4 receipt', '../../secret/receipt.pdf');
    expect(response.status).toBe(201);
    const metadata = (await response.json()) as FileMetadata;
    expect(metadata).toMatchObject({
      name: 'receipt.pdf',
      mimeType: 'application/pdf',
      size: 16,
      origin: 'chat',
      sessionId: session.sessionId,
      url: `/api/v1/sessions/${session.sessionId}/files/${metadata.id}`,
    });

    const file = await download(app, session, metadata.id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('inline; filename="receipt.pdf"');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await file.text()).toBe('%PDF-1.4 receipt');
  });

  it('keeps a non-ASCII file name as sent (UTF-8), and a name cut at 255 characters never splits an emoji', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const long = `${'a'.repeat(254)}😀.pdf`;
    for (const [sent, kept] of [
      ['ricevuta città è già pagata.pdf', 'ricevuta città è già pagata.pdf'],
      ['收据.pdf', '收据.pdf'],
      [long, 'a'.repeat(254)],
    ] as const) {
      const response = await upload(app, session, '%PDF-1.4 receipt', sent);
      expect(response.status).toBe(201);
      const metadata = (await response.json()) as FileMetadata;
      expect(metadata.name).toBe(kept);
      const file = await download(app, session, metadata.id);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent(kept)}`,
      );
    }
  });

  it('serves pages and unknown types as downloads, never inline', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const page = new Blob(['<script>alert(1)</script>'], { type: 'text/html' });
    const metadata = (await (await upload(app, session, page, 'x.html')).json()) as FileMetadata;
    const file = await download(app, session, metadata.id);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
  });

  it("never serves another session's file: 404, exactly like a missing one", async () => {
    const { app } = testApp();
    const mine = await createSession(app);
    const theirs = await createSession(app);
    const their = (await (await upload(app, theirs, 'private')).json()) as FileMetadata;
    const viaMySession = await download(app, mine, their.id);
    expect(viaMySession.status).toBe(404);
    expect(await viaMySession.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const missing = await download(app, mine, '00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    // Their file through their session id, with my token: 403.
    const wrongToken = await download(app, { sessionId: theirs.sessionId, token: mine.token }, their.id);
    expect(wrongToken.status).toBe(403);
    // ...and it cannot be attached to my messages either.
    const attach = await postMessage(app, mine, { message: 'hello', attachments: [their.id] });
    expect(attach.status).toBe(404);
  });

  it('validates file ids: no dots, no slashes, no path traversal', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    for (const id of ['..', 'a.b', '..%2F..%2Fetc%2Fpasswd', '%2e%2e']) {
      const response = await download(app, session, id);
      expect([400, 404], id).toContain(response.status);
      const body = (await response.json()) as { error: { code: string } };
      expect(['INVALID_REQUEST', 'NOT_FOUND']).toContain(body.error.code);
    }
    const dotted = await download(app, session, 'a.b');
    expect(dotted.status).toBe(400);
  });

  it('refuses bad uploads: not multipart, no file field, too large', async () => {
    const { app } = testApp({ limits: { maxUploadBytes: 1000 } });
    const session = await createSession(app);
    const json = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
      method: 'POST',
      headers: { 'X-Session-Token': session.token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    const form = new FormData();
    form.append('other', 'text');
    const noFile = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
      method: 'POST',
      headers: { 'X-Session-Token': session.token },
      body: form,
    });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    const big = await upload(app, session, 'x'.repeat(2000));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('refuses an upload of two files, or of a file in another field, keeping neither', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    const two = new FormData();
    two.append('file', new Blob(['first']), 'a.txt');
    two.append('file', new Blob(['second']), 'b.txt');
    const elsewhere = new FormData();
    elsewhere.append('file', new Blob(['first']), 'a.txt');
    elsewhere.append('other', new Blob(['second']), 'b.txt');
    for (const body of [two, elsewhere]) {
      const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
        method: 'POST',
        headers: { 'X-Session-Token': session.token },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: {
          code: 'INVALID_REQUEST',
          message: expect.stringContaining('one file, in one field named "file"'),
        },
      });
    }
    expect(await agent.fileStore.usage!()).toBe(0);
    expect((await upload(app, session, '%PDF-1.4 alone')).status).toBe(201);
  });

  it('attaches uploaded files to a message; the history keeps them', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    const metadata = (await (await upload(app, session, 'pdf bytes')).json()) as FileMetadata;
    const response = await postMessage(app, session, { message: 'hello', attachments: [metadata.id] });
    expect(response.status).toBe(200);
    const [user] = await agent.history(session.sessionId);
    expect(user!.attachments).toEqual([expect.objectContaining({ id: metadata.id, url: metadata.url })]);
  });
});

describe('upload quotas', () => {
  const send = (
    app: ReturnType<typeof testApp>['app'],
    session: { sessionId: string; token: string },
    size: number,
  ) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(size)], { type: 'application/octet-stream' }), 'f.bin');
    return app.request(`/api/v1/sessions/${session.sessionId}/files`, {
      method: 'POST',
      headers: { 'X-Session-Token': session.token },
      body: form,
    });
  };

  it('refuses with 413 QUOTA_EXCEEDED past the session quota, then past the server quota, storing nothing', async () => {
    const { app, agent } = testApp({ limits: { sessionQuotaBytes: 1000, totalQuotaBytes: 1500 } });
    const a = await createSession(app);
    const b = await createSession(app);
    expect((await send(app, a, 600)).status).toBe(201);
    const overSession = await send(app, a, 600);
    expect(overSession.status).toBe(413);
    expect(await overSession.json()).toEqual({
      error: {
        code: 'QUOTA_EXCEEDED',
        message: expect.stringContaining('at most 1000 bytes'),
        details: { quota: 'session', quotaBytes: 1000, remainingBytes: 400 },
      },
    });
    expect((await send(app, a, 400)).status).toBe(201);
    expect((await send(app, a, 1)).status).toBe(413);
    expect((await send(app, b, 600)).status).toBe(413);
    const overServer = await send(app, b, 600);
    expect(((await overServer.json()) as { error: { details: { quota: string } } }).error.details.quota).toBe(
      'server',
    );
    expect(await agent.fileStore.usage!()).toBe(1000);
  });

  it('refuses a body over maxUploadBytes even when it declares no length (chunked), storing nothing', async () => {
    const { app, agent } = testApp({ limits: { maxUploadBytes: 64 * 1024 } });
    const session = await createSession(app);
    const boundary = 'XyZ';
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(8 * 1024));
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
      method: 'POST',
      headers: {
        'X-Session-Token': session.token,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await agent.fileStore.usage!()).toBe(0);
  });
});
