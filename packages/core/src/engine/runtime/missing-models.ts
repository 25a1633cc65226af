/**
 * What an agent does about a language model the tree needs and the agent was not given
 * (`TreeAgentOptions.missingModels`): `fail` refuses to load the tree (`MODEL_NOT_CONFIGURED`),
 * as a server must; `notice` loads it, and each node that needs the missing model answers with a
 * warning message that says no model is configured and how to configure one — what authoring tools
 * (the CLI's `dev`, `lint`, `inspect`, `eval`) use to run a tree before a model is set up.
 */
export type MissingModels = 'fail' | 'notice';

/** How the program's users configure the model named `model`: the fix in `MODEL_NOT_CONFIGURED` messages. */
export type ModelHelp = (model: string) => string;

/** The fix named by default: the library's own way, the `models` option of `new TreeAgent`. */
export const DEFAULT_MODEL_HELP: ModelHelp = (model) =>
  `Pass models: { ${/^[A-Za-z_$][\w$]*$/.test(model) ? model : JSON.stringify(model)}: … } to new TreeAgent(...) (docs/models.md).`;

/** The runtime's policy for missing models: the mode and the fix its messages name. */
export interface MissingModelPolicy {
  mode: MissingModels;
  help: ModelHelp;
}

/** The policy of an agent given no `missingModels`: refuse to load, naming `new TreeAgent`'s `models`. */
export const DEFAULT_MISSING_MODELS: MissingModelPolicy = { mode: 'fail', help: DEFAULT_MODEL_HELP };
