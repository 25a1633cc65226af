import { analyticsRoutes } from '../analytics/analytics-routes.js';
import { personalDataRoutes } from '../analytics/personal-data-routes.js';
import type { CreateAppOptions } from '../app-options.js';
import { TreeEditorService } from '../editor/tree-editor-service.js';
import { openAiRoutes } from '../openai/openai-routes.js';
import { editorRoutes } from '../routes/editor-routes.js';
import { fileRoutes } from '../routes/file-routes.js';
import { handoffRoutes } from '../routes/handoff-routes.js';
import { healthRoutes } from '../routes/health-routes.js';
import { messageRoutes } from '../routes/message-routes.js';
import { metricsRoutes } from '../routes/metrics-routes.js';
import { operatorRoutes } from '../routes/operator-routes.js';
import { sessionEventRoutes } from '../routes/session-event-routes.js';
import { sessionRoutes } from '../routes/session-routes.js';
import { treeRoutes } from '../routes/tree-routes.js';
import { webhookRoutes } from '../routes/webhook-routes.js';
import type { Services } from '../services.js';
import { notConfiguredRoutes, sourcesRoutes } from '../sources/sources-routes.js';
import { joinRoutes } from './join-routes.js';
import type { RouteArea } from './route-area.js';

/**
 * The server's own route areas, in the order they are mounted: where each lives, who may call it,
 * its routes. Every area under `/api` and `/v1` is behind the server's guards (API key, limits)
 * besides its own access rule (docs/security.md).
 */
export function coreAreas(options: CreateAppOptions, services: Services): RouteArea<Services>[] {
  const analytics = options.analytics ?? {};
  return [
    // A session's routes need its token; creating one (POST /api/v1/sessions) does not.
    area('/api/v1/sessions', 'session', (s) =>
      joinRoutes(sessionRoutes(s), messageRoutes(s), fileRoutes(s), sessionEventRoutes(s)),
    ),
    area('/api/v1', 'public', treeRoutes),
    // Editing the tree is an admin's, or the developer's on their own machine (dev's debug mode).
    ...(options.editor
      ? [
          area('/api/v1/editor', services.operatorAuth.configured ? 'admin' : 'public', (s) =>
            editorRoutes(s, new TreeEditorService(options.editor!)),
          ),
        ]
      : []),
    // Operator functions behind the operator login (an admin may too), personal data behind the
    // admin role; never a session token or an API key (docs/analytics.md, docs/security.md).
    area('/api/v1/analytics', 'operator', (s) => analyticsRoutes(s, analytics)),
    area('/api/v1/personal-data', 'admin', (s) => personalDataRoutes(s, analytics)),
    // Knowledge sources: operators read, admins change (docs/knowledge.md, docs/security.md).
    area('/api/v1/sources', 'operator', (s) =>
      options.sources ? sourcesRoutes(s, options.sources) : notConfiguredRoutes(),
    ),
    // Login is open; each operator route checks its role (the console's, the audit log's).
    area('/api/v1/operator', 'public', (s) =>
      joinRoutes(operatorRoutes(s), handoffRoutes(s, analytics.store), webhookRoutes(s)),
    ),
    area('/v1', 'public', openAiRoutes),
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
