import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWebSources, type WebSource, webConventionProblems } from './web-conventions.js';

const ROUTES: WebSource = {
  path: 'app/pages.ts',
  text: [
    "import type { ComponentType } from 'preact';",
    "import { ChatPage } from '../pages/chat-page';",
    "import { TreePage } from '../pages/tree-page';",
    "import type { PagePath } from './navigation';",
  ].join('\n'),
};
const LAYOUT: WebSource[] = [
  ROUTES,
  { path: 'pages/chat-page.tsx', text: "import { Composer } from '../chat/composer';" },
  { path: 'pages/tree-page.tsx', text: "import { TreeView } from '../tree/tree-view';" },
  { path: 'api/api-client.ts', text: 'export async function go() { return fetch("/api/v1/x"); }' },
  {
    path: 'chat/composer.tsx',
    text: '// a comment that says fetch( and /api/v1/sessions\nexport const a = 1;',
  },
];

describe('the web app layout check (npm run layers)', () => {
  it('accepts pages in pages/, routed by app/pages.ts, and network calls in api/ only', () => {
    expect(webConventionProblems(LAYOUT)).toEqual([]);
  });

  it('refuses a fetch, an EventSource or an /api/ path outside api/, naming the file and where the call goes', () => {
    const problems = webConventionProblems([
      ...LAYOUT,
      { path: 'editor/use-editor.ts', text: 'const r = await fetch(url);' },
      { path: 'chat/live.ts', text: 'const s = new EventSource(url);' },
      { path: 'tree/node.tsx', text: "api.json('/api/v1/tree');" },
      { path: 'chat/turn.test.ts', text: 'await fetch(url);' },
    ]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^web\/src\/editor\/use-editor\.ts: `fetch\(` outside web\/src\/api\/.*api\/<area>-api\.ts/,
    );
    expect(problems[1]).toMatch(/^web\/src\/chat\/live\.ts: `new EventSource\(`/);
    expect(problems[2]).toMatch(/^web\/src\/tree\/node\.tsx: an `\/api\/…` path/);
  });

  it('refuses a routed page outside pages/, a page file elsewhere, a section in pages/ and an unrouted page', () => {
    const problems = webConventionProblems([
      {
        path: 'app/pages.ts',
        text: `${ROUTES.text}\nimport { EditorPage } from '../editor/editor-page';`,
      },
      ...LAYOUT.slice(1),
      { path: 'editor/editor-page.tsx', text: '' },
      { path: 'pages/filter-bar.tsx', text: '' },
      { path: 'pages/orphan-page.tsx', text: '' },
      { path: 'chat/inspector.tsx', text: "import { TreePage } from '../pages/tree-page';" },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^web\/src\/app\/pages\.ts: routes `\.\.\/editor\/editor-page`, which is not in web\/src\/pages\//,
      ),
      expect.stringMatching(/^web\/src\/editor\/editor-page\.tsx: a page outside web\/src\/pages\//),
      expect.stringMatching(/^web\/src\/pages\/filter-bar\.tsx: web\/src\/pages\/ holds routed pages only/),
      expect.stringMatching(/^web\/src\/pages\/orphan-page\.tsx: not routed/),
      expect.stringMatching(/^web\/src\/chat\/inspector\.tsx: imports the page `\.\.\/pages\/tree-page`/),
    ]);
  });

  it('the web app itself keeps the layout', () => {
    const sources = readWebSources(join(import.meta.dirname, '../packages/server/web/src'));
    expect(sources.length).toBeGreaterThan(50);
    expect(webConventionProblems(sources)).toEqual([]);
  });
});
