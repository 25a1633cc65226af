import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** A user-visible text written in a component instead of coming from a catalog. */
export interface UiString {
  /** `path:line`, the path relative to the scanned folder. */
  at: string;
  text: string;
  /** `text` (JSX text), `attribute <name>`, or `expression` (a literal shown as a child). */
  where: string;
}

/** The attributes whose value the user reads or hears. */
export const VISIBLE_ATTRIBUTES = new Set(['title', 'placeholder', 'aria-label', 'alt', 'label']);

/**
 * Texts that stay as they are in every language (brand names, units, symbols): a short explicit list.
 * Anything without a letter (punctuation, numbers, `·`, `—`) is never reported.
 */
export const ALLOWED_TEXTS = new Set(['Tree Agent', 'HTTP', 'JSON', 'ms', 'https://help.example.com/']);

const LETTER = /\p{L}/u;
const CODE_ELEMENTS = new Set(['code', 'pre', 'kbd']);

function report(
  found: UiString[],
  source: ts.SourceFile,
  path: string,
  node: ts.Node,
  text: string,
  where: string,
) {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (!LETTER.test(trimmed) || ALLOWED_TEXTS.has(trimmed)) return;
  // JSX text starts with the line break and indentation before it: count from its first letter.
  const leading = ts.isJsxText(node) ? text.length - text.trimStart().length : 0;
  const line = source.getLineAndCharacterOfPosition(node.getStart(source) + leading).line + 1;
  found.push({ at: `${path}:${line}`, text: trimmed, where });
}

/** The literals an expression shows as they are: a string, a template's text, a branch of `?:`, `??`, `||`, `&&`. */
function shownLiterals(expression: ts.Expression): { node: ts.Node; text: string }[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
    return [{ node: expression, text: expression.text }];
  if (ts.isTemplateExpression(expression))
    return [
      {
        node: expression,
        text: [expression.head.text, ...expression.templateSpans.map((s) => s.literal.text)].join(' '),
      },
    ];
  if (ts.isParenthesizedExpression(expression)) return shownLiterals(expression.expression);
  if (ts.isConditionalExpression(expression))
    return [...shownLiterals(expression.whenTrue), ...shownLiterals(expression.whenFalse)];
  if (
    ts.isBinaryExpression(expression) &&
    [
      ts.SyntaxKind.QuestionQuestionToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.AmpersandAmpersandToken,
    ].includes(expression.operatorToken.kind)
  )
    return [...shownLiterals(expression.left), ...shownLiterals(expression.right)];
  return [];
}

/**
 * The user-visible strings of one `.tsx` file that do not come from a catalog: JSX text, literals
 * shown as JSX children (`{busy ? 'Sending…' : 'Send'}`), and literals in the attributes users read
 * (`VISIBLE_ATTRIBUTES`), outside `<code>`, `<pre>` and `<kbd>`. A text that must stay as written
 * goes in `ALLOWED_TEXTS`.
 */
export function findUiStrings(path: string, text: string): UiString[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: UiString[] = [];
  const visit = (node: ts.Node) => {
    // Code is the same in every language: nothing inside <code>, <pre> or <kbd> is reported.
    if (ts.isJsxElement(node) && CODE_ELEMENTS.has(node.openingElement.tagName.getText(source))) return;
    if (ts.isJsxText(node)) report(found, source, path, node, node.text, 'text');
    else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const literal of shownLiterals(node.expression))
        report(found, source, path, literal.node, literal.text, 'expression');
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      if (VISIBLE_ATTRIBUTES.has(name)) {
        const initializer = node.initializer;
        const literals = ts.isStringLiteral(initializer)
          ? [{ node: initializer, text: initializer.text }]
          : ts.isJsxExpression(initializer) && initializer.expression
            ? shownLiterals(initializer.expression)
            : [];
        for (const literal of literals)
          report(found, source, path, literal.node, literal.text, `attribute ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every `.tsx` component under `root` (tests and test support left out), scanned. */
export function scanComponents(root: string): UiString[] {
  const found: UiString[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-support') walk(path);
      } else if (entry.name.endsWith('.tsx') && !entry.name.includes('.test.')) {
        found.push(...findUiStrings(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8')));
      }
    }
  };
  walk(root);
  return found;
}
