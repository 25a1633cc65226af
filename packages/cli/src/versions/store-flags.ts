import type { OptionDefinition } from '../commands/command-definition.js';

/** The flags of the version commands that say where the versions are (as `treeagent serve` has them). */
export const STORE_FLAGS: readonly OptionDefinition[] = [
  { flags: '--data <directory>', description: 'data directory (SQLite file)', default: '.treeagent' },
  {
    flags: '--database-url <url>',
    description:
      'PostgreSQL URL (or TREEAGENT_DATABASE_URL): the versions are in PostgreSQL, beside the sessions',
  },
  { flags: '--schema <name>', description: 'PostgreSQL schema of the tables (default public)' },
];
