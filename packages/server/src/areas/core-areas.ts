import { analyticsRoutes } from '../analytics/analytics-routes.js';
import { personalDataRoutes } from '../analytics/personal-data-routes.js';
import type { CreateAppOptions } from '../app-options.js';
import { callbacksRoutes } from '../editor/callbacks-routes.js';
import { chunkSuggestionRoutes } from '../editor/chunk-suggestion-routes.js';
import { editorRoutes } from '../editor/editor-routes.js';
import { TreeEditorService } from '../editor/tree-editor-service.js';
import { callbackQueueRoutes } from '../handoff/callbacks/callback-routes.js';
import { cannedRoutes } from '../handoff/canned/canned-routes.js';
import { handoffEventRoutes } from '../handoff/handoff-event-routes.js';
import { handoffQueueRoutes } from '../handoff/handoff-queue-routes.js';
import { handoffRoutes } from '../handoff/handoff-routes.js';
import { routingRoutes } from '../handoff/routing/routing-routes.js';
import { satisfactionReportRoutes } from '../handoff/satisfaction/satisfaction-routes.js';
import { webhookRoutes } from '../handoff/webhook-routes.js';
import { healthRoutes } from '../health/health-routes.js';
import { metricsRoutes } from '../metrics/metrics-routes.js';
import { oidcRoutes } from '../operators/oidc/oidc-routes.js';
import { operatorRoutes } from '../operators/operator-routes.js';
import type { Services } from '../services.js';
import { notConfiguredRoutes, sourcesRoutes } from '../sources/sources-routes.js';
import { treeRoutes } from '../tree/tree-routes.js';
import { versionRoutes } from '../versions/version-routes.js';
import { joinRoutes } from './join-routes.js';
import type { RouteArea } from './route-area.js';

/**
 * The server's own route areas, in the order they are mounted: where each lives, who may call it,
 * its routes. The web chat's (`/api/v1/sessions`) and the OpenAI-compatible endpoint's (`/v1`) are
 * not here: they are route channels (option `channels`, mounted before these). Every area under `/api` and `/v1` is behind the server's guards (API key, limits)
 * besides its own access rule (docs/security.md).
 */
export function coreAreas(options: CreateAppOptions, services: Services): RouteArea<Services>[] {
  const analytics = options.analytics ?? {};
  return [
    area('/api/v1', 'public', treeRoutes),
    // Editing the tree is an admin's, or the developer's on their own machine (dev's debug mode).
    ...(options.editor
      ? [
          area('/api/v1/editor', services.operatorAuth.configured ? 'admin' : 'public', (s) => {
            const editor = new TreeEditorService(options.editor!);
            return joinRoutes(editorRoutes(s, editor), chunkSuggestionRoutes(s, editor));
          }),
          // The callbacks module in the editor's Callbacks panel, with the editor's access.
          area('/api/v1/editor/callbacks', services.operatorAuth.configured ? 'admin' : 'public', (s) =>
            callbacksRoutes(s, options.editor!.callbacks),
          ),
        ]
      : []),
    // Operator functions behind the operator login (an admin may too), personal data behind the
    // admin role; never a session token or an API key (docs/analytics.md, docs/security.md).
    area('/api/v1/analytics', 'operator', (s) =>
      joinRoutes(analyticsRoutes(s, analytics), satisfactionReportRoutes(s)),
    ),
    // Versions and environments: list, diff, gated publish, rollback, experiments (docs/versions.md).
    // Without operator logins, the developer's own in debug mode (treeagent dev), as for the editor.
    ...(options.versions
      ? [
          area(
            '/api/v1/versions',
            !services.operatorAuth.configured && services.debug ? 'public' : 'admin',
            (s) => versionRoutes(s, options.versions!, analytics),
          ),
        ]
      : []),
    area('/api/v1/personal-data', 'admin', (s) => personalDataRoutes(s, analytics)),
    // Knowledge sources: operators read, admins change (docs/knowledge.md, docs/security.md).
    area('/api/v1/sources', 'operator', (s) =>
      options.sources ? sourcesRoutes(s, options.sources) : notConfiguredRoutes(),
    ),
    // Login is open; logout, me and the audit log check their role themselves.
    area('/api/v1/operator', 'public', operatorRoutes),
    // Single sign-on: starting one and the provider's callback are open; logout checks the login.
    area('/api/v1/operator/oidc', 'public', oidcRoutes),
    // The operator console: the queue, one handoff, the live stream (docs/handoff.md).
    area('/api/v1/operator/handoffs', 'operator', (s) =>
      joinRoutes(handoffQueueRoutes(s), handoffRoutes(s, analytics.store)),
    ),
    area('/api/v1/operator/events', 'operator', handoffEventRoutes),
    // Teams: presence, transfer (the holder or an admin; docs/handoff.md).
    area('/api/v1/operator/routing', 'operator', routingRoutes),
    // Canned responses: operators read, admins change (docs/handoff.md).
    area('/api/v1/operator/canned', 'operator', cannedRoutes),
    // Callback requests left out of hours: the operators of the team (docs/handoff.md).
    area('/api/v1/operator/callbacks', 'operator', callbackQueueRoutes),
    area('/api/v1/operator/webhook', 'admin', webhookRoutes),
    area('/', 'public', healthRoutes),
    ...((options.metrics ?? true) ? [area('/', 'public', metricsRoutes)] : []),
  ];
}

function area(
  prefix: string,
  access: RouteArea['access'],
  routes: RouteArea<Services>['routes'],
): RouteArea<Services> {
  return { prefix, access, routes };
}
