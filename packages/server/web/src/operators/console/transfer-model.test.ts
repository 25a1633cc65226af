import { describe, expect, it } from 'vitest';
import type { PresenceResponse } from '../../api/routing-api';
import { firstTarget, transferRequest, transferTargets } from './transfer-model';

const presence: PresenceResponse = {
  presence: [
    {
      operatorId: 'bruno',
      name: 'Bruno Bianchi',
      teams: ['support'],
      status: 'online',
      at: '2026-12-06T10:00:00Z',
    },
    {
      operatorId: 'carla',
      name: 'Carla Verdi',
      teams: ['billing'],
      status: 'online',
      at: '2026-12-06T10:00:00Z',
    },
    {
      operatorId: 'dario',
      name: 'Dario Neri',
      teams: ['billing'],
      status: 'away',
      at: '2026-12-06T10:00:00Z',
    },
  ],
  teams: [
    { team: 'billing', policy: 'manual', open: true },
    { team: 'support', policy: 'manual', open: true },
  ],
};

describe('transfer model', () => {
  it('offers the other teams and the other operators online, teams first', () => {
    const targets = transferTargets(presence, 'bruno', 'support');
    expect(targets).toEqual({ teams: ['billing'], operators: [{ id: 'carla', name: 'Carla Verdi' }] });
    expect(firstTarget(targets)).toBe('team:billing');
    expect(firstTarget({ teams: [], operators: targets.operators })).toBe('operator:carla');
    expect(firstTarget({ teams: [], operators: [] })).toBe('');
  });

  it('builds the request: a team or an operator, the note trimmed and left out when blank', () => {
    expect(transferRequest('team:billing', '  40 bikes ')).toEqual({ team: 'billing', note: '40 bikes' });
    expect(transferRequest('operator:carla', '   ')).toEqual({ operatorId: 'carla' });
    expect(transferRequest('', 'a note')).toBeNull();
    expect(transferRequest('queue:billing', '')).toBeNull();
    expect(transferRequest('team:', '')).toBeNull();
  });
});
