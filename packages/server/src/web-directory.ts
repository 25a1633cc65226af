import { fileURLToPath } from 'node:url';

/** The folder of the chat page shipped with the server (pass it as `web: { directory: WEB_DIRECTORY }`). */
export const WEB_DIRECTORY = fileURLToPath(new URL('../web/', import.meta.url));
