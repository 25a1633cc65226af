import { isLocalizedObject } from '../tree/localized-text.js';
import type {
  EmitNodeDefinition,
  GuardrailNodeDefinition,
  RootNodeDefinition,
} from '../tree/node-definition.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { LintWarning } from './lint-warning.js';

/** A customer text written in the tree (not returned by a callback, which lint cannot see). */
interface WrittenText {
  field: string;
  value: unknown;
}

/** The customer texts a node writes as constants: its message and options, warning, goal. */
function writtenTexts(node: TreeNode): WrittenText[] {
  const texts: WrittenText[] = [];
  if (node.type === 'emit') {
    const emit = (node.definition as EmitNodeDefinition).emit;
    if (emit && typeof emit === 'object') {
      texts.push({ field: 'emit.message.content', value: emit.message?.content });
      for (const [index, option] of (emit.options ?? []).entries())
        texts.push({ field: `emit.options[${index}]`, value: option });
    }
  }
  if (node.type === 'guardrail') {
    const { warning } = node.definition as GuardrailNodeDefinition;
    if (!(isLocalizedObject(warning) && warning.type === 'generated'))
      texts.push({ field: 'warning', value: warning });
  }
  if (node.type === 'root')
    texts.push({
      field: 'conversationGoal',
      value: (node.definition as RootNodeDefinition).conversationGoal,
    });
  return texts;
}

/**
 * Warnings about the languages of a tree (docs/multilingual-trees.md, "Lint"):
 * - `undeclared-languages`: a text given per language in a tree without `languages` (an error for
 *   `treeagent lint`: the session's language could not be fixed and nothing says which is the default);
 * - `missing-text`: a per-language text without a (non-empty) text in one of the declared languages,
 *   one warning per node, field and language: a session in that language gets the default language's;
 * - `unknown-language`: a text or chunk in a language the tree does not declare (never sent);
 * - `missing-chunks-language`: a node whose chunks say their `language`, with none in a declared one.
 * A plain string is the same text in every language and is not listed.
 */
export function languageWarnings(tree: Tree, label: (node: TreeNode) => string): LintWarning[] {
  const warnings: LintWarning[] = [];
  const { languages } = tree;
  const declared = languages.length ? `(${languages.join(', ')})` : '';
  let undeclared = false;
  for (const node of tree.nodes.values()) {
    for (const { field, value } of writtenTexts(node)) {
      if (!isLocalizedObject(value)) continue;
      const given = Object.keys(value);
      if (!languages.length) {
        if (!undeclared) {
          warnings.push({
            code: 'undeclared-languages',
            nodeId: node.id,
            message: `node ${label(node)} gives ${field} per language (${given.join(', ')}), but the tree declares no languages, so no session language can be chosen and no default is known.`,
            fix: `Add languages: [${given.map((language) => JSON.stringify(language)).join(', ')}] to the tree (the first is the default), beside "nodes".`,
          });
          undeclared = true;
        }
        continue;
      }
      for (const language of languages) {
        if (typeof value[language] === 'string' && value[language] !== '') continue;
        warnings.push({
          code: 'missing-text',
          nodeId: node.id,
          message: `node ${label(node)}: ${field} has no text in ${JSON.stringify(language)}; a session in ${language} gets ${languages[0] === language ? 'another language' : `the ${languages[0]} text`}.`,
          fix: `Add ${language}: "…" to ${field} of node ${node.id}.`,
        });
      }
      for (const language of given.filter((code) => !languages.includes(code)))
        warnings.push({
          code: 'unknown-language',
          nodeId: node.id,
          message: `node ${label(node)}: ${field} has a text in ${JSON.stringify(language)}, which is not one of the tree's languages ${declared}: it is never sent.`,
          fix: `Add "${language}" to the tree's languages, or remove that text.`,
        });
    }
    const tagged = (node.definition.chunks ?? []).flatMap((chunk) =>
      typeof chunk === 'object' && chunk.language !== undefined ? [chunk.language] : [],
    );
    if (!tagged.length || !languages.length) continue;
    for (const language of new Set(tagged.filter((code) => !languages.includes(code))))
      warnings.push({
        code: 'unknown-language',
        nodeId: node.id,
        message: `node ${label(node)} has chunks in ${JSON.stringify(language)}, which is not one of the tree's languages ${declared}.`,
        fix: `Add "${language}" to the tree's languages, or correct the chunks' language.`,
      });
    for (const language of languages.filter((code) => !tagged.includes(code)))
      warnings.push({
        code: 'missing-chunks-language',
        nodeId: node.id,
        message: `node ${label(node)} has chunks in ${[...new Set(tagged)].join(', ')} but none in ${JSON.stringify(language)}: messages in ${language} reach it only through chunks without a language or the other languages' words.`,
        fix: `Add chunks with language: "${language}" to node ${node.id} (the words ${language} users write).`,
      });
  }
  return warnings;
}
