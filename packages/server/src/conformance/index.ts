/**
 * `@treeagent/server/conformance`: the suite a route channel runs (vitest, an optional peer
 * dependency), as the web chat and the OpenAI-compatible channel do.
 */
export { describeRouteChannel, type RouteChannelSuiteOptions } from './route-channel-conformance.js';
