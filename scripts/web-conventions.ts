import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A source file of the web app: its path under `packages/server/web/src` (with `/`), and its text. */
export interface WebSource {
  path: string;
  text: string;
}

const API = 'api/';
const PAGES = 'pages/';
const ROUTE_TABLE = 'app/pages.ts';

/** Network calls that only `web/src/api/` may make (the one transport, and the wrappers by route area). */
const NETWORK: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\bfetch\s*\(/, what: '`fetch(`' },
  { pattern: /\bnew\s+EventSource\s*\(/, what: '`new EventSource(`' },
  { pattern: /\bXMLHttpRequest\b/, what: '`XMLHttpRequest`' },
  { pattern: /\bsendBeacon\s*\(/, what: '`sendBeacon(`' },
  { pattern: /['"`]\/api\//, what: 'an `/api/…` path' },
];

/** The text without its comments (a `//` after `:` is kept: `http://` in a string). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

function isTest(path: string): boolean {
  return /\.test\.tsx?$|\.test-d\.tsx?$/.test(path) || path.startsWith('test-support/');
}

/** The modules a file imports by value (type-only imports left out), as written. */
function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+['"]([^'"]+)['"]/gm))
    found.push(match[2] as string);
  return found;
}

/** `target` of an import in `from` (both under web/src), or null when it leaves web/src or is a package. */
function resolveImport(from: string, target: string): string | null {
  if (!target.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * The web app's layout rules (CONTRIBUTING.md, "Web app"), as problems that say what to move where:
 * no network call outside `api/`; every routed page in `pages/` (named `*-page.tsx`, listed in
 * `app/pages.ts`, imported by nothing but the app shell); nothing called a page elsewhere.
 */
export function webConventionProblems(files: readonly WebSource[]): string[] {
  const problems: string[] = [];
  const routeTable = files.find((file) => file.path === ROUTE_TABLE);
  const routed = new Set(
    routeTable ? valueImports(routeTable.text).map((target) => resolveImport(ROUTE_TABLE, target)) : [],
  );
  for (const file of files) {
    if (isTest(file.path)) continue;
    const code = withoutComments(file.text);
    if (!file.path.startsWith(API)) {
      for (const { pattern, what } of NETWORK) {
        if (pattern.test(code))
          problems.push(
            `web/src/${file.path}: ${what} outside web/src/api/. Call the server through the endpoint wrapper of its route area (web/src/api/<area>-api.ts), adding the call there.`,
          );
      }
    }
    const stem = file.path.replace(/\.tsx?$/, '');
    const isPageFile = file.path.startsWith(PAGES);
    if (!isPageFile && /-page$/.test(stem)) {
      problems.push(
        `web/src/${file.path}: a page outside web/src/pages/. A page is a route: move it to web/src/pages/ and list it in app/pages.ts, or name it after what it is (a section or view of its feature).`,
      );
    }
    if (isPageFile) {
      if (!/^pages\/[a-z0-9-]+-page\.tsx$/.test(file.path))
        problems.push(
          `web/src/${file.path}: web/src/pages/ holds routed pages only (\`<name>-page.tsx\`). Move it to the folder of its feature.`,
        );
      else if (routeTable && !routed.has(stem))
        problems.push(
          `web/src/${file.path}: not routed. List its component in web/src/app/pages.ts (and app/navigation.ts), or move it to the folder of its feature.`,
        );
    }
    if (file.path === ROUTE_TABLE) {
      for (const target of valueImports(file.text)) {
        const resolved = resolveImport(file.path, target);
        if (resolved && !resolved.startsWith(PAGES) && !resolved.startsWith('app/'))
          problems.push(
            `web/src/${ROUTE_TABLE}: routes \`${target}\`, which is not in web/src/pages/. Move the page to web/src/pages/<name>-page.tsx.`,
          );
      }
    } else if (!file.path.startsWith('app/')) {
      for (const target of valueImports(file.text)) {
        const resolved = resolveImport(file.path, target);
        if (resolved?.startsWith(PAGES))
          problems.push(
            `web/src/${file.path}: imports the page \`${target}\`. Pages are routes, not parts: move what it shares to the folder of its feature and import it from there.`,
          );
      }
    }
  }
  return problems;
}

/** The `.ts`/`.tsx` files under `directory` (the web app's `src`), with paths relative to it. */
export function readWebSources(directory: string): WebSource[] {
  const files: WebSource[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name))
        files.push({
          path: relative(directory, path).split(sep).join('/'),
          text: readFileSync(path, 'utf8'),
        });
    }
  };
  walk(directory);
  return files;
}
