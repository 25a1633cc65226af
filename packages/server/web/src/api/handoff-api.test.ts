import { describe, expect, it } from 'vitest';
import type { ApiClient } from './api-client';
import { handoffApi } from './handoff-api';

describe('the console queue', () => {
  it('asks for every open conversation the server lists (its maximum, not the default 200 that leaves out the newest)', async () => {
    const asked: string[] = [];
    const api = {
      json: async (path: string) => {
        asked.push(path);
        return { handoffs: [], queues: [] };
      },
    } as unknown as ApiClient;
    await handoffApi.list(api, 'open');
    await handoffApi.list(api, 'closed');
    const queries = asked.map((path) => Object.fromEntries(new URLSearchParams(path.split('?')[1])));
    expect(queries).toEqual([{ status: 'open', limit: '1000' }, { status: 'closed' }]);
  });
});
