import { describe, expect, test } from 'vitest';
import { FileAgent } from './file-agent.js';
import { InMemoryFileStore } from './in-memory-file-store.js';

describe('FileAgent', () => {
  test('files made in code are stored, registered and readable', async () => {
    const store = new InMemoryFileStore();
    const agent = new FileAgent([], store, 's1');
    const file = await agent.create({ name: 'report.csv', mimeType: 'text/csv', data: 'a,b\n1,2' });
    expect(file).toMatchObject({ origin: 'generated', sessionId: 's1' });
    expect(agent.byName('report.csv')).toEqual(file);
    expect(agent.list('generated')).toEqual([file]);
    expect(new TextDecoder().decode(await agent.read(file))).toBe('a,b\n1,2');
  });
});
