/**
 * API reports: one `api/<entry>.api.md` per published entry point of every package, written by
 * api-extractor from the built declarations (run `npm run build` first). CI runs the check
 * (`npm run api:check`): a public surface that differs from the checked-in report fails, so every
 * change of the API shows in review. After a deliberate change: `npm run build && npm run api:update`,
 * and commit the reports with the change.
 *
 * Each entry point also has a review, `api/<entry>.review.md`: one line per exported name with its
 * audience and reason (scripts/api-review.ts). The check fails, naming the name and the file, when an
 * export has no line there, and when the table of names per entry point in docs/architecture.md is
 * stale; `--update` rewrites the table, never a review.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import {
  countsTable,
  type EntryCount,
  exportedNames,
  parseReview,
  reviewProblems,
  withCountsTable,
} from './api-review.js';
import { workspaceEntries } from './workspace-packages.js';

const ROOT = resolve(import.meta.dirname, '..');
const update = process.argv.includes('--update');
const temp = mkdtempSync(join(tmpdir(), 'treeagent-api-'));
const changed: string[] = [];
const reviewed: { specifier: string; declarations: string; review: string }[] = [];
let errors = 0;

try {
  for (const entry of workspaceEntries()) {
    const folder = join(ROOT, entry.directory);
    const declarations = join(folder, entry.dist.replace(/\.js$/, '.d.ts'));
    const report = entry.subpath === '.' ? 'index' : entry.subpath.slice(2).replace(/\//g, '-');
    reviewed.push({
      specifier: entry.specifier,
      declarations,
      review: `${entry.directory}/api/${report}.review.md`,
    });
    mkdirSync(join(folder, 'api'), { recursive: true });
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: folder,
        mainEntryPointFilePath: declarations,
        bundledPackages: [],
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2022',
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              lib: ['ES2023'],
              types: ['node'],
              strict: true,
              skipLibCheck: true,
            },
            files: [declarations],
          },
        },
        apiReport: {
          enabled: true,
          reportFolder: join(folder, 'api'),
          reportTempFolder: temp,
          reportFileName: `${report}.api.md`,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
            'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
            'ae-unresolved-link': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
            // Line numbers in the report would change with every edit above an export.
            'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: join(folder, 'api-extractor.json'),
      packageJsonFullPath: join(folder, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback: (message) => {
        message.handled = true;
        if (message.logLevel === ExtractorLogLevel.Error) {
          errors++;
          process.stderr.write(`${entry.specifier}: ${message.formatMessageWithLocation(folder)}\n`);
        }
      },
    });
    if (result.apiReportChanged) changed.push(`${entry.directory}/api/${report}.api.md (${entry.specifier})`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

const ARCHITECTURE = 'docs/architecture.md';
const names = exportedNames(reviewed.map((entry) => entry.declarations));
const problems: string[] = [];
const counts: EntryCount[] = [];
for (const entry of reviewed) {
  const exported = names.get(entry.declarations) ?? [];
  counts.push({
    specifier: entry.specifier,
    names: exported.length,
    values: exported.filter((name) => name.value).length,
    types: exported.filter((name) => !name.value).length,
  });
  const path = join(ROOT, entry.review);
  if (!existsSync(path)) {
    problems.push(
      `${entry.specifier} has no review: create ${entry.review} with one line per exported name ("- \`Name\` — <audience>: <why it is public>").`,
    );
    continue;
  }
  const exportedList = exported.map((name) => name.name);
  problems.push(
    ...reviewProblems(
      entry.specifier,
      exportedList,
      parseReview(readFileSync(path, 'utf8'), entry.review),
      entry.review,
    ),
  );
}
const architecture = readFileSync(join(ROOT, ARCHITECTURE), 'utf8');
const withTable = withCountsTable(architecture, countsTable(counts), ARCHITECTURE);
if (withTable !== architecture) {
  if (update) {
    writeFileSync(join(ROOT, ARCHITECTURE), withTable);
    process.stdout.write(`${ARCHITECTURE}: the table of names per entry point rewritten.\n`);
  } else {
    problems.push(
      `${ARCHITECTURE}'s table of names per entry point is stale: run npm run build && npm run api:update, and commit it.`,
    );
  }
}
if (problems.length) {
  process.stderr.write(`API review:\n  ${problems.join('\n  ')}\n`);
  process.exitCode = 1;
}

if (errors) process.exitCode = 1;
if (changed.length && update) {
  process.stdout.write(`API reports updated:\n  ${changed.join('\n  ')}\nCommit them with the change.\n`);
} else if (changed.length) {
  process.stderr.write(
    `The public API differs from the checked-in reports:\n  ${changed.join('\n  ')}\nIf the change is deliberate: npm run build && npm run api:update, then commit the reports.\n`,
  );
  process.exitCode = 1;
} else if (!problems.length) {
  process.stdout.write(
    `API reports: ${workspaceEntries().length} entry points match, each export reviewed, the table of counts current.\n`,
  );
}
