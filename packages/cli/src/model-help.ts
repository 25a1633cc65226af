/**
 * How a `treeagent` user configures the language model named `model` (docs/models.md): the fix that
 * `MODEL_NOT_CONFIGURED` errors and the "no language model configured" notices of `dev` name —
 * the configuration file and the environment, not the library's `new TreeAgent({ models })`.
 */
export function cliModelHelp(model: string): string {
  const entry = `"${model}": { "provider": "openai", "model": "gpt-4o-mini", "apiKey": "env:OPENAI_API_KEY" }`;
  const environment =
    model === 'default'
      ? ', or set the environment (TREEAGENT_PROVIDER, TREEAGENT_MODEL, TREEAGENT_API_KEY; TREEAGENT_BASE_URL for an OpenAI-compatible server)'
      : '';
  return `Configure it in treeagent.config.json beside the tree (or the file given with --config): { "models": { ${entry} } }${environment}. See docs/models.md, "Configuration file and environment".`;
}
