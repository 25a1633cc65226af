import { history, indentWithTab, insertNewlineAndIndent, redo, selectAll, undo } from '@codemirror/commands';
import {
  bracketMatching,
  continuedIndent,
  defaultHighlightStyle,
  indentNodeProp,
  indentOnInput,
  LRLanguage,
  syntaxHighlighting,
} from '@codemirror/language';
import { type Diagnostic, linter, lintGutter } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { parser } from '@lezer/javascript';
import type { CallbackDiagnostic } from '../../../../src/api-types';

/**
 * TypeScript from the Lezer grammar alone (its highlighting comes with it): `@codemirror/lang-javascript`
 * would add completion and snippets, which the web app's size budget does not allow for.
 */
const typescript = LRLanguage.define({
  name: 'typescript',
  parser: parser.configure({
    dialect: 'ts',
    props: [indentNodeProp.add({ 'Block ClassBody ObjectExpression ArrayExpression': continuedIndent() })],
  }),
  languageData: {
    closeBrackets: { brackets: ['(', '[', '{', "'", '"', '`'] },
    commentTokens: { line: '//' },
  },
});

/** The Callbacks panel's code editor (loaded only when the panel opens: CodeMirror is large). */
export interface CodeEditor {
  text(): string;
  /** Replaces the whole text (a stub added, a reload). */
  setText(text: string): void;
  /** Puts the cursor at the start of `line` (1-based) and scrolls it into view. */
  goToLine(line: number): void;
  destroy(): void;
}

/**
 * CodeMirror 6 in TypeScript mode in `parent`, with `text`; every change is checked by `check`
 * (the worker's compiler) after a short pause, its errors underlined and marked in the gutter, and
 * `onChecked` told which text they are for; `onChange` on every edit.
 */
export function createCodeEditor(options: {
  parent: HTMLElement;
  text: string;
  label: string;
  check(text: string): Promise<CallbackDiagnostic[]>;
  onChecked(text: string, diagnostics: CallbackDiagnostic[]): void;
  onChange(text: string): void;
}): CodeEditor {
  // In a shadow root: CodeMirror's styles then go in a constructed style sheet, which the page's
  // Content-Security-Policy (style-src 'self', no inline <style>) lets through.
  const root = options.parent.attachShadow({ mode: 'open' });
  const view = new EditorView({
    parent: root,
    root,
    doc: options.text,
    extensions: [
      // A small setup (not codemirror's basicSetup: its search and completion double the chunk).
      lineNumbers(),
      history(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      // The keys the browser's editing does not give (commands' defaultKeymap would add 20 kB).
      keymap.of([
        { key: 'Enter', run: insertNewlineAndIndent },
        { key: 'Mod-a', run: selectAll, preventDefault: true },
        { key: 'Mod-z', run: undo, preventDefault: true },
        { key: 'Mod-Shift-z', run: redo, preventDefault: true },
        { key: 'Mod-y', run: redo, preventDefault: true },
        indentWithTab,
      ]),
      typescript,
      lintGutter(),
      linter(
        async (current): Promise<Diagnostic[]> => {
          const text = current.state.doc.toString();
          const diagnostics = await options.check(text);
          options.onChecked(text, diagnostics);
          const end = current.state.doc.length;
          return diagnostics.map((diagnostic) => ({
            from: Math.min(diagnostic.start, end),
            to: Math.min(diagnostic.start + Math.max(diagnostic.length, 1), end),
            severity: 'error',
            message: `${diagnostic.message} (TS${diagnostic.code})`,
          }));
        },
        { delay: 300 },
      ),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onChange(update.state.doc.toString());
      }),
      EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
      EditorView.theme({
        '&': { height: '100%', fontSize: '0.85rem', backgroundColor: 'var(--surface)' },
        '.cm-scroller': { fontFamily: 'var(--mono)' },
        '.cm-gutters': { backgroundColor: 'var(--surface-2)', borderRight: '1px solid var(--border)' },
      }),
    ],
  });
  return {
    text: () => view.state.doc.toString(),
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    goToLine: (line) => {
      const position = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines)).from;
      view.dispatch({
        selection: EditorSelection.cursor(position),
        effects: EditorView.scrollIntoView(position, { y: 'start', yMargin: 24 }),
      });
      view.focus();
    },
    destroy: () => view.destroy(),
  };
}
