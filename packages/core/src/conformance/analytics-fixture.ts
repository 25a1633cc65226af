import type { TurnFact, TurnFactStatus } from '../protocol/turn-fact.js';

/**
 * A generated conversation set with known answers (docs/analytics.md, "Proof"): six conversations
 * over three days and two tree versions, one of each ending. `ANALYTICS_EXPECTED` holds what every
 * report figure must be; the SQLite and PostgreSQL stores both run it.
 */
export interface FixtureConversation {
  sessionId: string;
  facts: TurnFact[];
  /** The failed turn's fact is recorded with `recordFacts`, not committed. */
  failed?: boolean;
}

interface TurnSpec {
  day: string;
  minute: number;
  version: 'v1' | 'v2';
  status: TurnFactStatus;
  node: number | null;
  agent: number | null;
  latency: number;
  message: string;
  errorCode?: string;
  margin?: [number, number, number, number];
  tokens?: [number, number];
}

function fact(sessionId: string, turn: number, spec: TurnSpec): TurnFact {
  const at = `2026-11-${spec.day}T10:${String(spec.minute).padStart(2, '0')}:00.000Z`;
  const [marginValue, lowNode, child, runnerUp] = spec.margin ?? [null, null, null, null];
  return {
    sessionId,
    turn,
    at,
    treeVersion: spec.version,
    status: spec.status,
    errorCode: spec.errorCode ?? null,
    nodeId: spec.node,
    agentId: spec.agent,
    bestSimilarity: 0.5,
    minMargin: marginValue,
    lowMarginNodeId: lowNode,
    lowMarginChildId: child,
    lowMarginRunnerUpId: runnerUp,
    failCounter: spec.status === 'answered' ? 0 : 1,
    latencyMs: spec.latency,
    inputTokens: spec.tokens?.[0] ?? null,
    outputTokens: spec.tokens?.[1] ?? null,
    message: spec.message,
    decisions:
      marginValue === null
        ? []
        : [
            {
              nodeId: lowNode!,
              childId: child!,
              similarity: 0.5,
              runnerUpId: runnerUp!,
              margin: marginValue,
              threshold: 0.3,
              descended: true,
            },
          ],
  };
}

const conversation = (sessionId: string, turns: TurnSpec[], failed = false): FixtureConversation => ({
  sessionId,
  facts: turns.map((spec, index) => fact(sessionId, index + 1, spec)),
  ...(failed ? { failed } : {}),
});

/** The six conversations, in the order they are written. */
export const ANALYTICS_FIXTURE: readonly FixtureConversation[] = [
  conversation('s1', [
    {
      day: '01',
      minute: 0,
      version: 'v1',
      status: 'answered',
      node: 5,
      agent: 1,
      latency: 10,
      message: 'orari del negozio',
      margin: [0.01, 1, 5, 6],
    },
    {
      day: '01',
      minute: 1,
      version: 'v1',
      status: 'answered',
      node: 6,
      agent: 1,
      latency: 20,
      message: 'grazie',
      tokens: [100, 20],
    },
  ]),
  conversation('s2', [
    {
      day: '01',
      minute: 2,
      version: 'v1',
      status: 'answered',
      node: 5,
      agent: 1,
      latency: 30,
      message: 'orari',
      margin: [0.2, 1, 5, 6],
    },
    {
      day: '01',
      minute: 3,
      version: 'v1',
      status: 'no-match',
      node: null,
      agent: 1,
      latency: 40,
      message: 'dove posso parcheggiare?',
    },
  ]),
  conversation('s3', [
    {
      day: '02',
      minute: 0,
      version: 'v1',
      status: 'fallback',
      node: 9,
      agent: 1,
      latency: 50,
      message: 'quanto costa la luna',
    },
    {
      day: '02',
      minute: 1,
      version: 'v1',
      status: 'answered',
      node: 6,
      agent: 1,
      latency: 60,
      message: 'ok, e le bici?',
      margin: [0.03, 1, 6, 5],
    },
  ]),
  conversation('s4', [
    {
      day: '02',
      minute: 2,
      version: 'v2',
      status: 'handed-off',
      node: 7,
      agent: 2,
      latency: 70,
      message: 'voglio parlare con una persona',
    },
  ]),
  conversation(
    's5',
    [
      {
        day: '03',
        minute: 0,
        version: 'v2',
        status: 'error',
        node: null,
        agent: null,
        latency: 80,
        message: 'rimborso',
        errorCode: 'CALLBACK_ERROR',
      },
    ],
    true,
  ),
  conversation('s6', [
    {
      day: '03',
      minute: 1,
      version: 'v2',
      status: 'fallback',
      node: 9,
      agent: 2,
      latency: 90,
      message: 'ordine 12',
      errorCode: 'CALLBACK_ERROR',
      tokens: [50, 5],
    },
    {
      day: '03',
      minute: 2,
      version: 'v2',
      status: 'fallback',
      node: 9,
      agent: 2,
      latency: 100,
      message: 'quanto costa la luna',
    },
  ]),
];

/** The range of the fixture, and what the report says over it (all versions, then `v2` only). */
export const ANALYTICS_EXPECTED = {
  filter: { from: '2026-11-01', to: '2026-11-03' },
  totals: {
    conversations: 6,
    turns: 10,
    answered: 4,
    noMatch: 1,
    fallback: 3,
    error: 1,
    handedOff: 1,
    contained: 2,
    abandoned: 3,
    handedOffConversations: 1,
    containmentRate: 2 / 6,
    noMatchRate: 0.1,
    fallbackRate: 0.3,
    errorRate: 0.1,
    lowMarginTurns: 2,
    lowMarginRate: 0.2,
    inputTokens: 150,
    outputTokens: 25,
  },
  perDay: [
    { day: '2026-11-01', conversations: 2, turns: 4, noMatch: 1, fallback: 0 },
    { day: '2026-11-02', conversations: 2, turns: 3, noMatch: 0, fallback: 1 },
    { day: '2026-11-03', conversations: 2, turns: 3, noMatch: 0, fallback: 2 },
  ],
  perNode: [
    { nodeId: 9, turns: 3 },
    { nodeId: 5, turns: 2 },
    { nodeId: 6, turns: 2 },
    { nodeId: 7, turns: 1 },
  ],
  perAgent: [
    { agentId: 1, turns: 6 },
    { agentId: 2, turns: 3 },
  ],
  lowMargin: [{ nodeId: 1, childIds: [5, 6], turns: 2, averageMargin: 0.02 }],
  latency: { p50: 50, p90: 90, p95: 100, p99: 100, mean: 55, max: 100 },
  versions: [
    { treeVersion: 'v1', turns: 6, firstAt: '2026-11-01T10:00:00.000Z', lastAt: '2026-11-02T10:01:00.000Z' },
    { treeVersion: 'v2', turns: 4, firstAt: '2026-11-02T10:02:00.000Z', lastAt: '2026-11-03T10:02:00.000Z' },
  ],
  v2: {
    conversations: 3,
    turns: 4,
    contained: 0,
    abandoned: 2,
    handedOffConversations: 1,
    fallback: 2,
    error: 1,
  },
  unmatched: [
    { message: 'quanto costa la luna', count: 2, lastAt: '2026-11-03T10:02:00.000Z' },
    { message: 'dove posso parcheggiare?', count: 1, lastAt: '2026-11-01T10:03:00.000Z' },
  ],
} as const;
