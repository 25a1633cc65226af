import { isStandardSchema } from './tool-definition.js';

/** What every provider accepts as a tool name (OpenAI's rule, the strictest). */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

type Report = (message: string, fix: string) => void;

/** Checks the `tools` and `maxToolSteps` of an llm or emit node (docs/models.md, *Tools*). */
export function validateTools(node: Record<string, unknown>, where: Report): void {
  const { tools, maxToolSteps } = node;
  if (
    maxToolSteps !== undefined &&
    (typeof maxToolSteps !== 'number' || !Number.isInteger(maxToolSteps) || maxToolSteps < 1)
  ) {
    where(
      `"maxToolSteps" is ${JSON.stringify(maxToolSteps)}: it must be a positive integer.`,
      'Set maxToolSteps to how many times the model may call tools before it must answer, e.g. 5.',
    );
  }
  if (tools === undefined) {
    if (maxToolSteps !== undefined)
      where('"maxToolSteps" has no effect on a node without "tools".', 'Remove it, or give the node tools.');
    return;
  }
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    where(
      '"tools" must be an object of name → tool.',
      'Write tools as { orderStatus: { description, parameters, execute } }.',
    );
    return;
  }
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    if (!TOOL_NAME.test(name))
      where(
        `tool name ${JSON.stringify(name)} is not accepted by model providers.`,
        'Name tools with letters, digits, "_" and "-" only, at most 64 characters (e.g. "orderStatus").',
      );
    if (typeof tool !== 'object' || tool === null) {
      where(`tool "${name}" is not an object.`, 'Give it { description, parameters, execute }.');
      continue;
    }
    const { description, parameters, execute, timeoutMs } = tool as Record<string, unknown>;
    if (typeof execute !== 'function')
      where(
        `tool "${name}" has no "execute" function.`,
        'Give it execute: (self, context, { input, signal }) => result.',
      );
    if (description !== undefined && typeof description !== 'string')
      where(`the description of tool "${name}" is not a string.`, 'Describe the tool in a sentence.');
    if (
      timeoutMs !== undefined &&
      (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    )
      where(
        `the timeoutMs of tool "${name}" is ${JSON.stringify(timeoutMs)}.`,
        'Set timeoutMs to a positive number of milliseconds, or remove it (default: callbackTimeoutMs).',
      );
    validateParameters(name, parameters, where);
  }
}

function validateParameters(name: string, parameters: unknown, where: Report): void {
  if (isStandardSchema(parameters)) {
    if (typeof parameters['~standard'].jsonSchema?.input !== 'function')
      where(
        `the parameters of tool "${name}" are a ${parameters['~standard'].vendor} schema that cannot give its JSON Schema.`,
        'Use zod 4.2 or newer (or another Standard JSON Schema library), or write the parameters as a JSON schema.',
      );
    return;
  }
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    where(
      `tool "${name}" has no "parameters".`,
      'Give it parameters: a JSON schema of an object ({ type: "object", properties: { … } }) or a zod object.',
    );
    return;
  }
  const type = (parameters as { type?: unknown }).type;
  if (type !== 'object')
    where(
      `the parameters of tool "${name}" have type ${JSON.stringify(type)}: tool arguments are always an object.`,
      'Write parameters as { type: "object", properties: { … }, required: [ … ] }.',
    );
}
