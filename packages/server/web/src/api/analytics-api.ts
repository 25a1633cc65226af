import type { AnalyticsReport, StoredTurnFact, TurnFactStatus } from '@treeagent/core/client';
import type {
  ClusterActionResponse,
  ComparisonResponse,
  ConversationsResponse,
  TranscriptResponse,
  UnmatchedResponse,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';

/** The filter of the Analytics and Review pages, as query parameters. */
export interface AnalyticsFilter {
  from?: string;
  to?: string;
  version?: string;
}

/** Review's search, on top of the filter. */
export interface ReviewQuery extends AnalyticsFilter {
  text?: string;
  status?: TurnFactStatus | '';
  nodeId?: number | null;
}

function query(values: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const json = { 'Content-Type': 'application/json' };

/**
 * The analytics and review calls of the web app (`/api/v1/analytics`: the server's analytics
 * routes), over the app's one `ApiClient`. They need the operator login, a cookie the server sets
 * (HttpOnly): the browser sends it, the page never sees it.
 */
/** One group of ratings: its key, how many, their average, how many of each value 1–5. */
export interface SatisfactionGroupView {
  key: string;
  /** By operator: the name colleagues see (null when the directory does not have it). */
  name?: string | null;
  count: number;
  average: number;
  distribution: number[];
}

/** The users' ratings of conversations with people (CSAT). */
export interface SatisfactionReport {
  count: number;
  average: number | null;
  byOperator: SatisfactionGroupView[];
  byTeam: SatisfactionGroupView[];
  byTreeVersion: SatisfactionGroupView[];
}

export const analyticsApi = {
  /** `GET /api/v1/analytics/satisfaction`: the users' ratings in the filter's days and version, by operator, team and tree version. */
  satisfaction: (api: ApiClient, filter: AnalyticsFilter) =>
    api.json<SatisfactionReport>(`/api/v1/analytics/satisfaction${query({ ...filter })}`),
  report: (api: ApiClient, filter: AnalyticsFilter) =>
    api.json<AnalyticsReport>(`/api/v1/analytics/report${query({ ...filter })}`),
  compare: (api: ApiClient, filter: AnalyticsFilter, a: string, b: string) =>
    api.json<ComparisonResponse>(
      `/api/v1/analytics/compare${query({ from: filter.from, to: filter.to, a, b })}`,
    ),
  unmatched: (api: ApiClient, filter: AnalyticsFilter) =>
    api.json<UnmatchedResponse>(`/api/v1/analytics/unmatched${query({ ...filter })}`),
  addChunks: (api: ApiClient, nodeId: number, messages: string[]) =>
    api.json<ClusterActionResponse>('/api/v1/analytics/unmatched/actions', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ action: 'add-chunks', nodeId, messages }),
    }),
  addUtterances: (api: ApiClient, label: string, messages: string[]) =>
    api.json<ClusterActionResponse>('/api/v1/analytics/unmatched/actions', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ action: 'add-utterances', label, messages }),
    }),
  conversations: (api: ApiClient, review: ReviewQuery) =>
    api.json<ConversationsResponse>(
      `/api/v1/analytics/conversations${query({ ...review, nodeId: review.nodeId ?? undefined })}`,
    ),
  transcript: (api: ApiClient, sessionId: string) =>
    api.json<TranscriptResponse>(`/api/v1/analytics/conversations/${encodeURIComponent(sessionId)}`),
  label: (api: ApiClient, fact: Pick<StoredTurnFact, 'sessionId' | 'turn'>, label: string | null) =>
    api.json<{ label: string | null }>(
      `/api/v1/analytics/conversations/${encodeURIComponent(fact.sessionId)}/turns/${fact.turn}/label`,
      { method: 'PUT', headers: json, body: JSON.stringify({ label }) },
    ),
};
