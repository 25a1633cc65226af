import { fileURLToPath } from 'node:url';

/**
 * The folder of the web app shipped with the server (the chat page, the debug view, the tree
 * view): `packages/server/dist/web`, built from `packages/server/web` by `npm run build:web` and
 * published with the package. Pass it as `web: { directory: WEB_DIRECTORY }`. The same path works
 * from the sources (`src/`) and from the compiled package (`dist/`).
 */
export const WEB_DIRECTORY = fileURLToPath(new URL('../dist/web/', import.meta.url));
