import { writeFileSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import { type AnalyticsStore, type SatisfactionRatings, variantFigures } from '@treeagent/core/adapter';
import type { ReportFilter } from '@treeagent/core/analytics';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { importPostgresAdapter } from '../postgres-adapter.js';
import { experimentDesign, experimentLines } from '../report/experiment-report.js';
import { formatComparison, formatReport, type NodeNames } from '../report/format-report.js';
import { reportHtml } from '../report/report-html.js';
import { defineCommand } from './command-definition.js';

/** The first day an experiment's figures are read from without --from: every day the facts hold. */
const EXPERIMENT_FROM = '2000-01-01';

export interface ReportOptions {
  data?: string;
  /** PostgreSQL instead of the data directory: a `postgres://` URL. */
  databaseUrl?: string;
  schema?: string;
  from?: string;
  to?: string;
  version?: string;
  /** Two tree versions to compare. */
  compare?: string[];
  /** Two tree versions in an experiment (control first), with the test's design. */
  experiment?: string[];
  alpha?: string;
  power?: string;
  baseline?: string;
  minEffect?: string;
  lowMargin?: string;
  json?: boolean;
  html?: string;
  /** Writes the labelled turns of review as an utterance set (TSV) for eval and fit. */
  labels?: string;
  /** A tree file, for node names. */
  tree?: string;
}

/**
 * `treeagent report`: analytics over the stored turn facts (docs/analytics.md), from the SQLite data
 * directory or PostgreSQL: a terminal summary, `--json`, `--html <file>` with charts, `--compare a b`
 * for two tree versions, and `--labels <file>` to export review labels for eval and fit.
 */
export async function reportCommand(options: ReportOptions, out: Output): Promise<number> {
  const filter: ReportFilter = {
    ...(options.from ? { from: options.from } : {}),
    ...(options.to ? { to: options.to } : {}),
    ...(options.version ? { treeVersion: options.version } : {}),
    ...(options.lowMargin === undefined ? {} : { lowMargin: Number(options.lowMargin) }),
  };
  if (options.compare && options.compare.length !== 2) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      '--compare takes two tree versions: --compare <a> <b> (see the versions a report lists).',
    );
  }
  const names: NodeNames = options.tree
    ? new Map([...(await loadTree(options.tree)).tree.nodes.values()].map((node) => [node.id, node.name]))
    : new Map();
  const { analytics, satisfaction, close } = await openAnalytics(options);
  try {
    if (options.labels) {
      const labels = await analytics.labels();
      writeFileSync(
        options.labels,
        labels.map((label) => `${label.message.replace(/\s+/g, ' ').trim()}\t${label.label}\n`).join(''),
      );
      out.log(
        `Wrote ${labels.length} labelled utterances to ${options.labels} (treeagent eval <tree> ${options.labels}).`,
      );
      return 0;
    }
    if (options.experiment) {
      if (options.experiment.length !== 2)
        throw new TreeAgentError(
          'INVALID_INPUT',
          '--experiment takes two tree versions: --experiment <control> <treatment>.',
        );
      const design = experimentDesign(options);
      // An experiment's figures are not capped at the report's default 30 days: its first
      // conversations count as much as its last. From the first day, unless --from says otherwise.
      const since = { ...filter, from: options.from ?? EXPERIMENT_FROM };
      const [a, b] = await Promise.all(
        options.experiment.map((version) => analytics.report({ ...since, treeVersion: version })),
      );
      // CSAT per variant: the ratings of the sessions each version ran.
      const ratings = await satisfaction.list();
      const control = variantFigures(options.experiment[0]!, a!.totals, ratings);
      const treatment = variantFigures(options.experiment[1]!, b!.totals, ratings);
      if (options.json) out.log(JSON.stringify({ control, treatment }, null, 2));
      else {
        out.log(
          `Every conversation of each tree version ${options.from ? `from ${options.from}` : 'since its first'}${options.to ? ` to ${options.to}` : ''} (--from <the experiment's start day> leaves out those before it; the Analytics page counts from the experiment's start).`,
        );
        for (const line of experimentLines(control, treatment, design)) out.log(line);
      }
      return 0;
    }
    if (options.compare) {
      const [a, b] = await Promise.all(
        options.compare.map((version) => analytics.report({ ...filter, treeVersion: version })),
      );
      if (options.html) {
        writeFileSync(options.html, reportHtml({ a: a!, b: b! }, names));
        out.log(`Wrote ${options.html}.`);
      }
      if (options.json) out.log(JSON.stringify({ a, b }, null, 2));
      else if (!options.html) for (const line of formatComparison(a!, b!)) out.log(line);
      return 0;
    }
    const report = await analytics.report(filter);
    if (options.html) {
      writeFileSync(options.html, reportHtml({ a: report }, names));
      out.log(`Wrote ${options.html}.`);
    }
    if (options.json) out.log(JSON.stringify(report, null, 2));
    else if (!options.html) for (const line of formatReport(report, names)) out.log(line);
    return 0;
  } finally {
    await close();
  }
}

async function openAnalytics(
  options: ReportOptions,
): Promise<{ analytics: AnalyticsStore; satisfaction: SatisfactionRatings; close: () => Promise<void> }> {
  if (options.databaseUrl) {
    const module = await importPostgresAdapter<{
      PostgresSessionStore: new (options: {
        connection: string;
        schema?: string;
      }) => {
        analytics(): AnalyticsStore;
        close(): Promise<void>;
      };
      PostgresSatisfactionRatings: new (options: {
        connection: string;
        schema?: string;
      }) => SatisfactionRatings & { close(): Promise<void> };
    }>('--database-url');
    const scoped = { connection: options.databaseUrl, ...(options.schema ? { schema: options.schema } : {}) };
    const store = new module.PostgresSessionStore(scoped);
    const satisfaction = new module.PostgresSatisfactionRatings(scoped);
    return {
      analytics: store.analytics(),
      satisfaction,
      close: async () => {
        await satisfaction.close();
        await store.close();
      },
    };
  }
  const data = openDataDirectory(options.data);
  const store = data.options.sessionStore as unknown as { analytics(): AnalyticsStore };
  return { analytics: store.analytics(), satisfaction: data.satisfaction, close: () => data.close() };
}

/** `treeagent report`: its help, arguments and options (the command table, `command-table.ts`). */
export const reportDefinition = defineCommand({
  name: 'report',
  description:
    'Analytics over the stored turns: conversations and turns per day, containment, no-match and fallback rates, traffic per node and agent, ambiguous siblings, latency percentiles; --html writes charts, --compare two tree versions, --labels exports review labels for eval and fit.',
  options: [
    { flags: '--data <directory>', description: 'data directory (SQLite)', default: '.treeagent' },
    {
      flags: '--database-url <url>',
      description: 'read PostgreSQL instead (postgres://…; needs @treeagent/postgres)',
    },
    { flags: '--schema <name>', description: 'PostgreSQL schema of the tables (default public)' },
    { flags: '--from <day>', description: 'first day, YYYY-MM-DD (UTC; default 30 days before --to)' },
    { flags: '--to <day>', description: 'last day, YYYY-MM-DD (UTC; default today)' },
    { flags: '--version <hash>', description: 'only turns answered by this tree version (content hash)' },
    { flags: '--compare <versions...>', description: 'compare two tree versions: --compare <a> <b>' },
    {
      flags: '--experiment <versions...>',
      description:
        'an experiment between two tree versions (control first): per-variant figures and the significance test (docs/versions.md)',
    },
    { flags: '--alpha <level>', description: 'experiment: significance level (default 0.05)' },
    { flags: '--power <share>', description: 'experiment: power (default 0.8)' },
    {
      flags: '--baseline <share>',
      description: "experiment: the control's expected containment (default 0.5)",
    },
    {
      flags: '--min-effect <share>',
      description: 'experiment: smallest containment difference to detect (default 0.05)',
    },
    {
      flags: '--low-margin <value>',
      description: 'a decision by less than this is ambiguous',
      default: '0.05',
    },
    { flags: '--tree <file>', description: 'the tree, to show node names' },
    { flags: '--json', description: 'print the report as JSON' },
    { flags: '--html <file>', description: 'write the report with charts as one HTML file' },
    {
      flags: '--labels <file>',
      description: 'write the labelled turns of review as utterances (TSV) for eval and fit',
    },
  ],
  run: (_arguments, options, out) => reportCommand(options, out),
});
