import type { Page } from 'playwright-core';
import type { RunningServer } from '../serve.js';
import { loginOperator } from './operators.js';

/** The session the widget on `page` holds (its `localStorage` entry for the agent at `agent.url`). */
export function widgetSession(
  page: Page,
  agent: RunningServer,
): Promise<{ sessionId: string; token: string; userId: string | null }> {
  return page.evaluate(
    (key) => JSON.parse(String((globalThis as any).localStorage.getItem(key))),
    `treeagent.widget:${agent.url}`,
  );
}

/**
 * An operator (`login`) at the console of `agent`, on one handed-off session: the HTTP calls the
 * console makes (claim, typing, a file, a reply), each answering its `Response`.
 */
export async function operatorOn(agent: RunningServer, sessionId: string, login: 'bruno' | 'anna' = 'bruno') {
  const token = await loginOperator(agent.app, login);
  const base = `${agent.url}/api/v1/operator/handoffs/${encodeURIComponent(sessionId)}`;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Operator-Token': token },
      body: JSON.stringify(body),
    });
  return {
    claim: () => post('/claim', {}),
    typing: (typing: boolean) => post('/typing', { typing }),
    reply: (content: string, more: { options?: string[]; attachments?: string[] } = {}) =>
      post('/messages', { content, ...more }),
    /** Uploads a text file for a reply; its id. */
    async upload(name: string, text: string): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      const response = await fetch(`${base}/files`, {
        method: 'POST',
        headers: { 'X-Operator-Token': token },
        body: form,
      });
      if (response.status !== 201) throw new Error(`The upload answered ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    },
  };
}
