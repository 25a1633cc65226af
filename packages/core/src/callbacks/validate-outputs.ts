import type { ChunkId } from '../protocol/chunk-id.js';
import { MessageType, Outcome } from '../protocol/constants.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { Filter } from '../protocol/filter.js';
import type { HandoffRequest } from '../protocol/handoff.js';
import type { JsonSchema } from '../protocol/json-schema.js';
import type { LocalizedText } from '../protocol/localized-text.js';
import type { Source } from '../protocol/output-message.js';
import type {
  BaseEmitOutput,
  BaseExtendMessagePromptOutput,
  BasePromptOutput,
  BaseResponseFormatOutput,
  PromptSegment,
  TargetStep,
} from '../tree/callback-outputs.js';
import { OutputChecker } from './output-checker.js';

const STEPS: readonly TargetStep[] = ['explore', 'before'];

/** A validated `after` output, defaults applied. */
export interface AfterDecision {
  nodeTarget: number | null;
  step: TargetStep;
  outcome: Outcome;
  resume: boolean;
  /** Hand the session to people (the other fields are then ignored). */
  handoff: HandoffRequest | null;
}

/** Checks a `HandoffRequest` (of an output or of `context.handoff`); `null` when absent. */
export function validateHandoffRequest(
  check: OutputChecker,
  value: unknown,
  field: string,
): HandoffRequest | null {
  if (value === undefined || value === null) return null;
  const request = check.object(value, field);
  check.knownKeys(request, field, ['reason', 'queue', 'summary', 'message', 'returnOption']);
  const reason = check.optionalString(request.reason, `${field}.reason`);
  if (!reason?.trim())
    check.fail(`${field}.reason`, 'a non-empty string (why, for the operators)', request.reason);
  const queue = check.optionalString(request.queue, `${field}.queue`);
  if (queue !== undefined && !/^[\w.-]{1,64}$/.test(queue))
    check.fail(`${field}.queue`, '1–64 letters, digits, "_", "." or "-"', queue);
  return {
    reason,
    queue: queue ?? 'default',
    summary: check.optionalString(request.summary, `${field}.summary`) ?? null,
    message: check.optionalText(request.message, `${field}.message`) ?? null,
    returnOption: check.optionalText(request.returnOption, `${field}.returnOption`) ?? null,
  };
}

export function validateAfterOutput(nodeId: number, value: unknown): AfterDecision {
  const check: OutputChecker = new OutputChecker(nodeId, 'after');
  if (value === undefined || value === null)
    return { nodeTarget: null, step: 'explore', outcome: 'success', resume: false, handoff: null };
  const output = check.object(value, '');
  check.knownKeys(output, '', ['nodeTarget', 'step', 'outcome', 'resume', 'handoff']);
  return {
    nodeTarget: check.optionalNodeId(output.nodeTarget, 'nodeTarget') ?? null,
    step: check.oneOf(output.step, 'step', STEPS) ?? 'explore',
    outcome: check.oneOf(output.outcome, 'outcome', [Outcome.SUCCESS, Outcome.FAILURE]) ?? 'success',
    resume: check.optionalBoolean(output.resume, 'resume') ?? false,
    handoff: validateHandoffRequest(check, output.handoff, 'handoff'),
  };
}

export interface BeforeRunDecision {
  nodeTarget: number | null;
  step: TargetStep;
  resume: boolean;
  handoff: HandoffRequest | null;
}

export function validateBeforeRunOutput(nodeId: number, value: unknown): BeforeRunDecision {
  const check: OutputChecker = new OutputChecker(nodeId, 'beforeRun');
  if (value === undefined || value === null)
    return { nodeTarget: null, step: 'explore', resume: false, handoff: null };
  const output = check.object(value, '');
  check.knownKeys(output, '', ['nodeTarget', 'step', 'resume', 'handoff']);
  return {
    nodeTarget: check.optionalNodeId(output.nodeTarget, 'nodeTarget') ?? null,
    step: check.oneOf(output.step, 'step', STEPS) ?? 'explore',
    resume: check.optionalBoolean(output.resume, 'resume') ?? false,
    handoff: validateHandoffRequest(check, output.handoff, 'handoff'),
  };
}

export function validateFallbackOutput(
  nodeId: number,
  value: unknown,
): { nodeTarget: number; resumes: boolean } {
  const check: OutputChecker = new OutputChecker(nodeId, 'fallback');
  const output = check.object(value, '');
  check.knownKeys(output, '', ['nodeTarget', 'resumes']);
  const target = check.optionalNodeId(output.nodeTarget, 'nodeTarget');
  if (target === undefined) check.fail('nodeTarget', 'the id of the node to run next', output.nodeTarget);
  if (output.resumes !== undefined && typeof output.resumes !== 'boolean')
    check.fail('resumes', 'true or false', output.resumes);
  return { nodeTarget: target, resumes: output.resumes === true };
}

export function validateExtendMessageOutput(nodeId: number, value: unknown): BaseExtendMessagePromptOutput {
  const check: OutputChecker = new OutputChecker(nodeId, 'extendMessage');
  const output = check.object(value, '');
  check.knownKeys(output, '', ['prompt', 'systemPrompt']);
  const prompt = check.optionalString(output.prompt, 'prompt');
  if (!prompt) check.fail('prompt', 'a non-empty string', output.prompt);
  const systemPrompt = check.optionalString(output.systemPrompt, 'systemPrompt');
  return systemPrompt === undefined ? { prompt } : { prompt, systemPrompt };
}

export function validatePromptOutput(nodeId: number, value: unknown): BasePromptOutput {
  const check: OutputChecker = new OutputChecker(nodeId, 'prompt');
  const output = check.object(value, '');
  check.knownKeys(output, '', ['prompt', 'systemPrompt', 'files', 'segments', 'modelParams', 'historyLimit']);
  const segments = check.optionalArray(output.segments, 'segments')?.map((segment, index) => {
    const field = `segments[${index}]`;
    const item = check.object(segment, field);
    check.knownKeys(item, field, ['type', 'content']);
    const type = check.oneOf(item.type, `${field}.type`, ['text', 'files'] as const);
    if (type === 'text')
      return { type, content: check.optionalString(item.content, `${field}.content`) ?? '' };
    if (type === 'files') return { type, content: files(check, item.content, `${field}.content`) ?? [] };
    return check.fail(`${field}.type`, '"text" or "files"', item.type);
  }) as PromptSegment[] | undefined;
  const modelParams =
    output.modelParams == null ? undefined : check.object(output.modelParams, 'modelParams');
  return {
    prompt: check.optionalString(output.prompt, 'prompt') ?? null,
    systemPrompt: check.optionalString(output.systemPrompt, 'systemPrompt') ?? null,
    files: files(check, output.files, 'files') ?? null,
    segments: segments ?? null,
    modelParams: modelParams ?? null,
    historyLimit: check.optionalNumber(output.historyLimit, 'historyLimit', 0, 10_000) ?? 0,
  };
}

export function validateResponseFormatOutput(
  nodeId: number,
  value: unknown,
): Required<BaseResponseFormatOutput> & { name: string } {
  const check: OutputChecker = new OutputChecker(nodeId, 'responseFormat');
  const output = check.object(value, '');
  check.knownKeys(output, '', ['schema', 'attemptsLimit']);
  let schema = check.object(output.schema, 'schema');
  let name = typeof schema.title === 'string' ? schema.title : 'response';
  // Accept OpenAI's wrappers: { type: 'json_schema', json_schema: { name, schema } } and { name, schema }.
  const wrapped = (schema.json_schema ??
    (typeof schema.name === 'string' && schema.schema ? schema : undefined)) as
    | { name?: unknown; schema?: unknown }
    | undefined;
  if (wrapped) {
    schema = check.object(wrapped.schema, 'schema.schema');
    if (typeof wrapped.name === 'string') name = wrapped.name;
  }
  const attemptsLimit = check.optionalNumber(output.attemptsLimit, 'attemptsLimit', 1, 20) ?? 3;
  if (!Number.isInteger(attemptsLimit)) check.fail('attemptsLimit', 'an integer from 1 to 20', attemptsLimit);
  return { schema: schema as JsonSchema, attemptsLimit, name };
}

export function validateEmitOutput(nodeId: number, value: unknown): BaseEmitOutput {
  const check: OutputChecker = new OutputChecker(nodeId, 'emit');
  const output = check.object(value, '');
  check.knownKeys(output, '', [
    'message',
    'options',
    'attachments',
    'dynamicAttachments',
    'sources',
    'waitInteraction',
  ]);
  const message = check.object(output.message, 'message');
  check.knownKeys(message, 'message', ['type', 'content']);
  const type = check.oneOf(message.type, 'message.type', [
    MessageType.STATIC,
    MessageType.GENERATED,
    MessageType.NONE,
  ]);
  if (type === undefined) check.fail('message.type', '"static", "generated" or "none"', message.type);
  const content = check.optionalText(message.content, 'message.content');
  if (type === MessageType.GENERATED && content !== undefined) {
    check.fail(
      'message.content',
      'absent for a GENERATED message (the model writes it; use STATIC to give the text)',
      content,
    );
  }
  if (type === MessageType.STATIC && content === undefined)
    check.fail('message.content', 'a string for a STATIC message', content);
  const options = check.optionalArray(output.options, 'options')?.map((option, index): LocalizedText => {
    if (option === '' || option === null || option === undefined)
      return check.fail(`options[${index}]`, 'a non-empty string', option);
    return check.optionalText(option, `options[${index}]`)!;
  });
  const sources = check.optionalArray(output.sources, 'sources')?.map((source, index) => {
    const item = check.object(source, `sources[${index}]`);
    check.knownKeys(item, `sources[${index}]`, ['title', 'url', 'content', 'chunkId', 'extra']);
    if (typeof item.content !== 'string') check.fail(`sources[${index}].content`, 'a string', item.content);
    check.optionalString(item.title, `sources[${index}].title`);
    check.optionalString(item.url, `sources[${index}].url`);
    return item as unknown as Source;
  });
  return {
    message: { type, content: content ?? null },
    options: options ?? [],
    attachments: files(check, output.attachments, 'attachments') ?? [],
    dynamicAttachments: files(check, output.dynamicAttachments, 'dynamicAttachments') ?? [],
    sources: sources ?? [],
    waitInteraction: check.optionalBoolean(output.waitInteraction, 'waitInteraction') ?? false,
  };
}

/** A validated `query` output, defaults applied. */
export interface QueryRequest {
  query: string | null;
  filter: Filter | null;
  blackList: ChunkId[];
  chunkQty: number;
  threshold: number;
  offset: string | null;
}

export function validateQueryOutput(nodeId: number, value: unknown): QueryRequest {
  const check: OutputChecker = new OutputChecker(nodeId, 'query');
  const output = check.object(value, '');
  check.knownKeys(output, '', ['query', 'filter', 'blackList', 'chunkQty', 'threshold', 'offset']);
  const chunkQty = check.optionalNumber(output.chunkQty, 'chunkQty', 1, 10_000) ?? 3;
  if (!Number.isInteger(chunkQty)) check.fail('chunkQty', 'a positive integer', chunkQty);
  const blackList = blackListIds(check, output.blackList);
  return {
    query: check.optionalString(output.query, 'query') ?? null,
    filter: output.filter == null ? null : (check.object(output.filter, 'filter') as Filter),
    blackList: blackList ?? [],
    chunkQty,
    threshold: check.optionalNumber(output.threshold, 'threshold', -1, 1) ?? 0.25,
    offset: check.optionalString(output.offset, 'offset') ?? null,
  };
}

/**
 * The chunk ids of a query's `blackList`: an array of ids, or a `Blacklist` (any copy of the class,
 * or its JSON form `{ nodes, chunks }`), of which the chunk ids count.
 */
function blackListIds(check: OutputChecker, value: unknown): ChunkId[] | undefined {
  if (value === undefined || value === null) return undefined;
  let ids: unknown[];
  let field = 'blackList';
  if (Array.isArray(value)) ids = value;
  else if (typeof value === 'object' && isIterable((value as { chunks?: unknown }).chunks)) {
    ids = [...(value as { chunks: Iterable<unknown> }).chunks];
    field = 'blackList.chunks';
  } else {
    return check.fail('blackList', 'an array of chunk ids or a Blacklist', value);
  }
  return ids.map((id, index) => {
    if (typeof id !== 'string' && !Number.isInteger(id)) check.fail(`${field}[${index}]`, 'a chunk id', id);
    return id as ChunkId;
  });
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function'
  );
}

function files(check: OutputChecker, value: unknown, field: string): FileMetadata[] | undefined {
  return check.optionalArray(value, field)?.map((file, index) => {
    const item = check.object(file, `${field}[${index}]`);
    for (const key of ['id', 'name', 'mimeType'] as const) {
      if (typeof item[key] !== 'string' || item[key] === '')
        check.fail(`${field}[${index}].${key}`, 'a non-empty string', item[key]);
    }
    if (item.origin !== 'chat' && item.origin !== 'rag' && item.origin !== 'generated') {
      check.fail(`${field}[${index}].origin`, '"chat", "rag" or "generated"', item.origin);
    }
    return item as unknown as FileMetadata;
  });
}
