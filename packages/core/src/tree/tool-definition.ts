import type { Context } from '../context/context.js';
import type { JsonSchema } from '../protocol/json-schema.js';

/**
 * A schema library's object that follows [Standard Schema](https://standardschema.dev) with its
 * JSON Schema extension: zod 4.2 or newer (`z.object({ … })`), ArkType, Valibot through its adapter.
 * Tree Agent sends its JSON Schema to the model and validates the model's arguments with it.
 */
export interface StandardJsonSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardValidationResult<Output> | Promise<StandardValidationResult<Output>>;
    readonly jsonSchema: { readonly input: (options: { target: string }) => Record<string, unknown> };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** What a Standard Schema's `validate` returns. */
export type StandardValidationResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** The arguments of a tool: a JSON schema of an object, or a Standard Schema (zod) object. */
export type ToolParameters = JsonSchema | StandardJsonSchema;

/** The input type a tool's `execute` receives: inferred from a zod (Standard Schema) object, else a plain record. */
export type ToolInput<P> = P extends StandardJsonSchema<infer Output> ? Output : Record<string, any>;

/** `special` of a tool's `execute`: the call the model made. */
export interface ToolCallSpecial<Input = Record<string, any>> {
  /** The arguments, validated against the tool's `parameters` (zod: its parsed output). */
  input: Input;
  /** Id of this call, as in the `tool-call` and `tool-result` events. */
  toolCallId: string;
  toolName: string;
  /** Which tool step of the node this call belongs to (1 for the model's first answer). */
  step: number;
  /**
   * Aborted when the call exceeds the tool's `timeoutMs` or the caller cancels the interaction: pass
   * it to `fetch` and database clients so the work stops too.
   */
  signal: AbortSignal;
}

/** A tool's function, called like any callback with the node's `self` and the `context`. */
export type ToolExecute<Input = Record<string, any>, S extends Record<string, any> = Record<string, any>> = (
  self: S,
  context: Context,
  call: ToolCallSpecial<Input>,
) => unknown;

/**
 * A function the model of an `llm` node (or of an emit's GENERATED message) may call
 * (docs/models.md, *Tools*). Its result — any JSON value — goes back to the model, which then
 * answers or calls more tools, up to the node's `maxToolSteps`.
 */
export interface ToolDefinition<Input = any, S extends Record<string, any> = Record<string, any>> {
  /** What the tool does and when to use it: the model reads it to decide. */
  description?: string;
  /** The arguments: a JSON schema of an object, or a zod object (any Standard Schema with JSON Schema). */
  parameters: ToolParameters;
  /** Runs the call. Throwing (or exceeding `timeoutMs`) fails the node: the agent's fallback takes over. */
  execute: ToolExecute<Input, S>;
  /** Longest a call may take, in ms; its `signal` is then aborted. Default: the agent's `callbackTimeoutMs`. */
  timeoutMs?: number;
}

/** In a tree document's `callbacks`, `"tools.<name>"` names the function that runs tool `<name>` (docs/tree-format.md). */
export const TOOL_PREFIX = 'tools.';

/** The tools of a node, by name (letters, digits, `_`, `-`; at most 64 characters). */
export type ToolSet<S extends Record<string, any> = Record<string, any>> = Record<
  string,
  ToolDefinition<any, S>
>;

/**
 * Defines a tool with its input typed from its `parameters` (a zod object, or any Standard Schema
 * with JSON Schema). With a JSON schema the input is a plain record. Returns the tool unchanged.
 *
 * @example
 * const orderStatus = defineTool({
 *   description: 'Status of an order, by its number',
 *   parameters: z.object({ orderNumber: z.string().regex(/^\d{5,}$/) }),
 *   execute: async (_self, _context, { input, signal }) => orders.status(input.orderNumber, { signal }),
 * });
 * // { id: 42, type: 'llm', parent: 40, tools: { orderStatus }, maxToolSteps: 3, … }
 */
export function defineTool<
  P extends ToolParameters,
  S extends Record<string, any> = Record<string, any>,
>(tool: {
  description?: string;
  parameters: P;
  execute: ToolExecute<ToolInput<P>, S>;
  timeoutMs?: number;
}): ToolDefinition<ToolInput<P>, S> {
  return tool;
}

const jsonSchemas = new WeakMap<object, JsonSchema>();

/** The JSON schema of a tool's arguments: its own, or a zod (Standard Schema) object's, converted once. */
export function toolJsonSchema(tool: Pick<ToolDefinition, 'parameters'>): JsonSchema {
  const parameters = tool.parameters;
  if (!isStandardSchema(parameters)) return parameters;
  let schema = jsonSchemas.get(parameters);
  if (!schema) {
    const { $schema: _dialect, ...rest } = parameters['~standard'].jsonSchema.input({ target: 'draft-07' });
    schema = rest;
    jsonSchemas.set(parameters, schema);
  }
  return schema;
}

/** Whether `parameters` is a Standard Schema (zod…) rather than a JSON schema. */
export function isStandardSchema(parameters: unknown): parameters is StandardJsonSchema {
  return (
    typeof parameters === 'object' &&
    parameters !== null &&
    typeof (parameters as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function'
  );
}
