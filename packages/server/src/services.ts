import type { TreeAgent } from '@treeagent/core';
import type { ResolvedLimits } from './app-options.js';
import type { ResolvedExpiry } from './auth/session-expiry.js';
import type { SessionTokens } from './auth/session-tokens.js';
import type { ChannelService } from './channels/channel-service.js';
import type { ServerLogger } from './errors/error-response.js';
import type { HandoffService } from './handoff/handoff-service.js';
import type { EventStreams } from './http/event-streams.js';
import type { FixedWindows } from './http/fixed-windows.js';
import type { MessageLimits } from './http/message-limits.js';
import type { TurnMetrics } from './metrics/turn-metrics.js';
import type { OperatorAuth } from './operators/operator-auth.js';
import type { TurnRunner } from './turns/turn-runner.js';
import type { TurnTracker } from './turns/turn-tracker.js';

/** What the route handlers share: built once by `createApp`. */
export interface Services {
  agent: TreeAgent;
  debug: boolean;
  /** Whether the server requires API keys (`apiKeys` given). */
  apiKeysConfigured: boolean;
  tokens: SessionTokens;
  runner: TurnRunner;
  tracker: TurnTracker;
  metrics: TurnMetrics;
  limits: ResolvedLimits;
  expiry: ResolvedExpiry;
  /** New sessions per client address (`null`: unlimited). */
  sessionCreation: FixedWindows | null;
  /** The open event streams, under their caps (`streams`). */
  streams: EventStreams;
  /** User messages per session and per client address (`messageLimit`). */
  messageLimits: MessageLimits;
  logger: ServerLogger;
  /** Operator login, roles and the audit log (`operatorAuth.require('admin')` guards an admin route). */
  operatorAuth: OperatorAuth;
  /** Human handoff: the queue, the bus between processes, the webhook, the metrics. */
  handoffs: HandoffService;
  /** Messaging channels (option `channels`), or `null`. */
  channels: ChannelService | null;
  readyTimeoutMs: number;
  /** When the app was created (the `created` of `/v1/models`). */
  startedAt: Date;
}
