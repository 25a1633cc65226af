/** A finding about a tree that is valid but will probably not behave as meant (or, `severity: 'error'`, will fail). */
export interface LintWarning {
  code:
    | 'unreachable-node'
    | 'ambiguous-siblings'
    | 'child-without-chunks'
    | 'distant-anchor'
    /** A switch or empty node whose `before` exploration passes through (see `structure-warnings.ts`). */
    | 'before-passed-through'
    /** An agent without `fallback`. */
    | 'agent-without-fallback'
    /** From a fitted embedder (`@treeagent/fit`): a node with too few chunks to be a class of the fit. */
    | 'too-few-chunks-to-fit'
    /** From a fitted embedder: the fit was made for another version of the tree. */
    | 'stale-fit'
    /** Texts given per language in a tree that declares no `languages` (see `language-warnings.ts`). */
    | 'undeclared-languages'
    /** A per-language text without its text in one of the tree's languages. */
    | 'missing-text'
    /** A text or chunks in a language the tree does not declare. */
    | 'unknown-language'
    /** A node whose chunks name their languages, with none in one of the tree's languages. */
    | 'missing-chunks-language'
    /** An error: an llm node without `after` and children, which shows nothing and ends turns in `LOOP`. */
    | 'llm-shows-nothing';
  /** `error`: the tree will fail at run time (`treeagent lint` exits 1). Absent: a warning. */
  severity?: 'error';
  nodeId: number;
  message: string;
  fix: string;
}
