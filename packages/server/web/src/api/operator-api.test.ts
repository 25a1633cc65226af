import { describe, expect, it } from 'vitest';
import { auditQuery } from './operator-api';

describe('the audit log query', () => {
  it('asks for 100 entries with the filled filters trimmed, and pages before an id', () => {
    const query = auditQuery({ sessionId: ' s-1 ', actorId: '', action: 'handoff.claim' }, null);
    expect(query.startsWith('/api/v1/operator/audit?')).toBe(true);
    const params = new URLSearchParams(query.split('?')[1]);
    expect(Object.fromEntries(params)).toEqual({ limit: '100', sessionId: 's-1', action: 'handoff.claim' });
    const next = new URLSearchParams(
      auditQuery({ sessionId: '', actorId: '  ', action: '' }, 41).split('?')[1],
    );
    expect(Object.fromEntries(next)).toEqual({ limit: '100', beforeId: '41' });
  });
});
