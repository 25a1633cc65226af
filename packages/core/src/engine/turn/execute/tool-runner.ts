import { TreeAgentError } from '../../../errors/tree-agent-error.js';
import type {
  LanguageModel,
  ModelTool,
  ModelToolCall,
  ModelToolResultPart,
} from '../../../model/language-model.js';
import { toolsOf } from '../../../tree/node-callbacks.js';
import {
  isStandardSchema,
  type ToolCallSpecial,
  type ToolDefinition,
  type ToolSet,
  toolJsonSchema,
} from '../../../tree/tool-definition.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import { schemaErrors } from './json-answer.js';

/** Default `maxToolSteps`: how many times the model may call tools before it must answer. */
export const DEFAULT_MAX_TOOL_STEPS = 5;

/** A node's tools, ready for its model calls. */
export interface NodeTools {
  definitions: ToolSet;
  /** What the model is told: name, description, JSON schema of the arguments. */
  forModel: ModelTool[];
  maxSteps: number;
}

/**
 * The tools of `node` for `model`, or `null` when the node declares none. A model that says it cannot
 * call tools (`supportsTools: false`) is a `MODEL` error that names the node and the fix.
 */
export function nodeTools(node: TreeNode, model: LanguageModel): NodeTools | null {
  const definition = toolsOf(node);
  const definitions = definition.tools;
  if (!definitions || Object.keys(definitions).length === 0) return null;
  if (model.supportsTools === false) {
    throw new TreeAgentError(
      'MODEL',
      `Node ${node.id} declares tools (${Object.keys(definitions).join(', ')}), but model "${model.id}" cannot call tools. Give the node a model that can (its "model" option; docs/models.md, Tools), or remove its tools.`,
      { nodeId: node.id, details: { modelId: model.id } },
    );
  }
  return {
    definitions,
    forModel: Object.entries(definitions).map(([name, tool]) => ({
      name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: toolJsonSchema(tool),
    })),
    maxSteps: definition.maxToolSteps ?? DEFAULT_MAX_TOOL_STEPS,
  };
}

/** Why a tool's own signal was aborted: its time limit. */
class ToolTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the tool call exceeded ${timeoutMs} ms`);
    this.name = 'ToolTimeout';
  }
}

/**
 * Runs one tool call of the model, with `tool-call` and `tool-result` events, and returns the
 * result part for the next request. A call of an unknown tool or with arguments that do not match
 * the tool's parameters goes back to the model as an error result (it may correct itself); a tool
 * that throws is a `CALLBACK_ERROR` and one that outlives its `timeoutMs` a `TIMEOUT`, both naming
 * the node and the tool: the node fails and the agent's fallback takes over. The tool's `signal` is
 * aborted on timeout and when the caller cancels the interaction.
 */
export async function runToolCall(
  turn: StepContext,
  node: TreeNode,
  tools: NodeTools,
  call: ModelToolCall,
  step: number,
): Promise<ModelToolResultPart> {
  const { toolCallId, toolName } = call;
  turn.emit({ type: 'tool-call', nodeId: node.id, toolCallId, toolName, step, input: safeCopy(call.input) });
  const started = performance.now();
  const result = (output: unknown, error?: string): ModelToolResultPart => {
    turn.emit({
      type: 'tool-result',
      nodeId: node.id,
      toolCallId,
      toolName,
      step,
      durationMs: performance.now() - started,
      output: safeCopy(output),
      ...(error ? { error } : {}),
    });
    return { type: 'tool-result', toolCallId, toolName, output, ...(error ? { isError: true } : {}) };
  };
  const tool = Object.hasOwn(tools.definitions, toolName) ? tools.definitions[toolName] : undefined;
  if (!tool) {
    const known = Object.keys(tools.definitions).join(', ');
    return result(`There is no tool named "${toolName}". The tools are: ${known}.`, 'UNKNOWN_TOOL');
  }
  const checked = await checkInput(tool, call.input);
  if (!checked.ok)
    return result(`Invalid arguments for tool "${toolName}": ${checked.error}`, 'INVALID_TOOL_INPUT');
  let output: unknown;
  try {
    output = await executeTool(turn, node, toolName, tool, {
      input: checked.value as Record<string, unknown>,
      toolCallId,
      toolName,
      step,
    });
  } catch (error) {
    turn.emit({
      type: 'tool-result',
      nodeId: node.id,
      toolCallId,
      toolName,
      step,
      durationMs: performance.now() - started,
      error: TreeAgentError.isInstance(error) ? error.code : 'CALLBACK_ERROR',
    });
    throw error;
  }
  return result(output);
}

async function executeTool(
  turn: StepContext,
  node: TreeNode,
  name: string,
  tool: ToolDefinition,
  call: Omit<ToolCallSpecial, 'signal'>,
): Promise<unknown> {
  const callback = `tools.${name}`;
  const timeoutMs = tool.timeoutMs ?? turn.runtime.limits.callbackTimeoutMs;
  const limited = timeoutMs > 0 && Number.isFinite(timeoutMs);
  const controller = new AbortController();
  const outer = turn.input.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The tool's own time limit replaces the turn's callback limit: its signal is aborted, then the call is abandoned.
  const run = (...args: unknown[]) => {
    const running = Promise.resolve(tool.execute(...(args as Parameters<ToolDefinition['execute']>)));
    if (!limited) return running;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new ToolTimeout(timeoutMs));
        reject(
          new TreeAgentError(
            'TIMEOUT',
            `Tool "${name}" of node ${node.id} did not finish within ${timeoutMs} ms (${tool.timeoutMs === undefined ? 'callbackTimeoutMs' : 'its timeoutMs'}); its signal was aborted. Make it faster or raise the tool's timeoutMs.`,
            { nodeId: node.id, callback, details: { timeoutMs, tool: name } },
          ),
        );
      }, timeoutMs);
      timer.unref?.();
    });
    return Promise.race([running, expired]);
  };
  try {
    const output = await turn.call(
      node,
      callback,
      run,
      [await turn.selfOf(node), turn.context, { ...call, signal: controller.signal }],
      node.id,
      { timeoutMs: 0 },
    );
    return jsonValue(node.id, callback, output);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

async function checkInput(
  tool: ToolDefinition,
  input: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, error: 'the arguments must be a JSON object.' };
  const parameters = tool.parameters;
  if (isStandardSchema(parameters)) {
    const checked = await parameters['~standard'].validate(input);
    if (!checked.issues) return { ok: true, value: checked.value };
    return {
      ok: false,
      error: checked.issues
        .map((issue) => {
          const path = (issue.path ?? [])
            .map((key) => String(typeof key === 'object' ? key.key : key))
            .join('.');
          return path ? `${path}: ${issue.message}` : issue.message;
        })
        .join('; '),
    };
  }
  const errors = schemaErrors(input, parameters);
  return errors === null ? { ok: true, value: input } : { ok: false, error: errors };
}

/** A tool's result as JSON (`undefined` → `null`); a value JSON cannot hold is the tool's error. */
function jsonValue(nodeId: number, callback: string, output: unknown): unknown {
  if (output === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(output));
  } catch (error) {
    throw new TreeAgentError(
      'INVALID_CALLBACK_OUTPUT',
      `The "${callback}" callback of node ${nodeId} returned a value that is not JSON (${(error as Error).message}). Return plain data: objects, arrays, strings, numbers, booleans, null.`,
      { nodeId, callback, cause: error },
    );
  }
}

function safeCopy(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return '[unserialisable]';
  }
}
