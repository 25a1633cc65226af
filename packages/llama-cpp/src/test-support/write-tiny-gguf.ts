import { type GgufContent, type GgufTensor, type GgufValue, writeGguf } from './gguf-writer.js';

/**
 * Writes a tiny `llama`-architecture GGUF model with seeded random weights, for tests: it loads in
 * llama.cpp in milliseconds and generates (meaningless) text, so loading, streaming, grammars and
 * chat templates can be exercised without downloading a real model.
 *
 * - Tokenizer: SentencePiece-style (`tokenizer.ggml.model = 'llama'`): `<unk>`, `<s>`, `</s>`,
 *   `<|im_start|>`, `<|im_end|>` (control tokens), the 256 byte tokens `<0x00>`…`<0xFF>` (so any
 *   text can be tokenized), `▁` (the SentencePiece space) and one token per printable ASCII character.
 * - Chat template: ChatML (which node-llama-cpp recognizes as its `ChatMLChatWrapper`).
 * - Weights: uniform random, deterministic for a given `seed`. One embedding dimension is a
 *   constant "bias" feature, and the output matrix uses it to make every token except `▁` and the
 *   printable characters very unlikely: the model writes readable ASCII, never stops on its own
 *   (end of generation comes from `maxTokens` or a grammar), and never emits raw bytes that would
 *   not form valid UTF-8.
 */

export interface TinyGgufOptions {
  /** Seed of the random weights. Default 1. */
  seed?: number;
  /** `llama.context_length` (training context). Default 2048. */
  contextLength?: number;
  /** `llama.embedding_length`. Default 64 (must be a multiple of `headCount`). */
  embeddingLength?: number;
  /** `llama.attention.head_count` (and `head_count_kv`). Default 4. */
  headCount?: number;
  /** `llama.feed_forward_length`. Default 128. */
  feedForwardLength?: number;
  /** `general.name`. Default `tiny-random-llama`. */
  name?: string;
}

export interface TinyGgufInfo {
  path: string;
  /** The vocabulary, by token id. */
  tokens: readonly string[];
  /** Parameters (float count) of the model. */
  parameters: number;
}

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** llama.cpp `llama_token_type`. */
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

/** mulberry32: a small, fast, seedable PRNG. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(): { tokens: string[]; types: number[]; readable: Set<number> } {
  const tokens: string[] = [];
  const types: number[] = [];
  const readable = new Set<number>();
  const add = (token: string, type: number, isReadable = false) => {
    if (isReadable) readable.add(tokens.length);
    tokens.push(token);
    types.push(type);
  };
  add('<unk>', TOKEN_TYPE.unknown);
  add('<s>', TOKEN_TYPE.control);
  add('</s>', TOKEN_TYPE.control);
  add('<|im_start|>', TOKEN_TYPE.control);
  add('<|im_end|>', TOKEN_TYPE.control);
  for (let byte = 0; byte < 256; byte++)
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TOKEN_TYPE.byte);
  add('\u2581', TOKEN_TYPE.normal, true);
  for (let code = 0x21; code <= 0x7e; code++) add(String.fromCharCode(code), TOKEN_TYPE.normal, true);
  return { tokens, types, readable };
}

/** Builds the GGUF content of the tiny model (see {@link writeTinyGguf}). */
export function tinyGgufContent(options: TinyGgufOptions = {}): GgufContent & { tokens: string[] } {
  const seed = options.seed ?? 1;
  const nEmbd = options.embeddingLength ?? 64;
  const nHead = options.headCount ?? 4;
  const nFf = options.feedForwardLength ?? 128;
  const contextLength = options.contextLength ?? 2048;
  if (nEmbd % nHead !== 0) throw new Error('embeddingLength must be a multiple of headCount');
  const headDim = nEmbd / nHead;
  const { tokens, types, readable } = vocabulary();
  const nVocab = tokens.length;
  const next = random(seed);
  // Uniform in [-a, a] has standard deviation a / sqrt(3).
  const uniform = (std: number) => (next() * 2 - 1) * std * Math.sqrt(3);
  const matrix = (dims: [number, number], std: number): GgufTensor['data'] => {
    const data = new Float32Array(dims[0] * dims[1]);
    for (let i = 0; i < data.length; i++) data[i] = uniform(std);
    return data;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);

  // Row t of token_embd is the embedding of token t (GGUF dims are [n_embd, n_vocab]).
  const tokenEmbd = matrix([nEmbd, nVocab], 0.1);
  for (let t = 0; t < nVocab; t++) tokenEmbd[t * nEmbd] = 1; // the constant "bias" feature
  const output = matrix([nEmbd, nVocab], 0.5);
  for (let t = 0; t < nVocab; t++) output[t * nEmbd] = readable.has(t) ? 0 : -10;

  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab], data: tokenEmbd },
    { name: 'output_norm.weight', dims: [nEmbd], data: ones(nEmbd) },
    { name: 'output.weight', dims: [nEmbd, nVocab], data: output },
    { name: 'blk.0.attn_norm.weight', dims: [nEmbd], data: ones(nEmbd) },
    // Linear layers: dims [n_in, n_out]; y = W x with W stored as n_out rows of n_in values.
    { name: 'blk.0.attn_q.weight', dims: [nEmbd, nEmbd], data: matrix([nEmbd, nEmbd], 0.02) },
    { name: 'blk.0.attn_k.weight', dims: [nEmbd, nEmbd], data: matrix([nEmbd, nEmbd], 0.02) },
    { name: 'blk.0.attn_v.weight', dims: [nEmbd, nEmbd], data: matrix([nEmbd, nEmbd], 0.02) },
    { name: 'blk.0.attn_output.weight', dims: [nEmbd, nEmbd], data: matrix([nEmbd, nEmbd], 0.02) },
    { name: 'blk.0.ffn_norm.weight', dims: [nEmbd], data: ones(nEmbd) },
    { name: 'blk.0.ffn_gate.weight', dims: [nEmbd, nFf], data: matrix([nEmbd, nFf], 0.02) },
    { name: 'blk.0.ffn_up.weight', dims: [nEmbd, nFf], data: matrix([nEmbd, nFf], 0.02) },
    { name: 'blk.0.ffn_down.weight', dims: [nFf, nEmbd], data: matrix([nFf, nEmbd], 0.02) },
  ];

  const u32 = (value: number): GgufValue => ({ type: 'uint32', value });
  const f32 = (value: number): GgufValue => ({ type: 'float32', value });
  const str = (value: string): GgufValue => ({ type: 'string', value });
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', str('llama')],
    ['general.name', str(options.name ?? 'tiny-random-llama')],
    ['general.file_type', u32(0)], // ALL_F32
    ['general.alignment', u32(32)],
    ['llama.context_length', u32(contextLength)],
    ['llama.embedding_length', u32(nEmbd)],
    ['llama.block_count', u32(1)],
    ['llama.feed_forward_length', u32(nFf)],
    ['llama.attention.head_count', u32(nHead)],
    ['llama.attention.head_count_kv', u32(nHead)],
    ['llama.rope.dimension_count', u32(headDim)],
    ['llama.rope.freq_base', f32(10000)],
    ['llama.attention.layer_norm_rms_epsilon', f32(1e-5)],
    ['llama.vocab_size', u32(nVocab)],
    ['tokenizer.ggml.model', str('llama')],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: tokens }],
    ['tokenizer.ggml.scores', { type: 'float32[]', value: tokens.map(() => 0) }],
    ['tokenizer.ggml.token_type', { type: 'int32[]', value: types }],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(2)],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', str(CHATML_TEMPLATE)],
  ];
  return { metadata, tensors, tokens };
}

/** Writes the tiny random model to `path` (about 0.4 MB with the defaults). */
export async function writeTinyGguf(path: string, options: TinyGgufOptions = {}): Promise<TinyGgufInfo> {
  const { tokens, ...content } = tinyGgufContent(options);
  await writeGguf(path, content);
  const parameters = content.tensors.reduce((sum, tensor) => sum + tensor.data.length, 0);
  return { path, tokens, parameters };
}
