import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import protobuf from 'protobufjs';

/**
 * A tiny BERT-shaped feature-extraction model, written to disk in the layout transformers.js
 * loads: `config.json`, `tokenizer.json`, `tokenizer_config.json` and `onnx/model.onnx`.
 *
 * It has no attention layers: the ONNX graph looks every token up in an embedding table, adds the
 * token-type embedding, and zeroes padding (`last_hidden_state = (E[input_ids] + T[token_type_ids])
 * × attention_mask`). Each of the first `hiddenSize` words gets its own axis (plus a little
 * deterministic noise), so texts that share words are more similar than texts that don't, and a
 * mean-pooled vector can be computed by hand from `table`.
 */
export interface TinyModelOptions {
  /** Folder to write into (created). Default: a folder `tiny-bert` inside a new temporary directory. */
  dir?: string;
  /** Width of the vectors. Default 16. */
  hiddenSize?: number;
  /** Vocabulary besides the special tokens; lower case. Default: a few words used by the tests. */
  words?: readonly string[];
  /**
   * `fp32` writes `onnx/model.onnx`; `fp16` writes `onnx/model_fp16.onnx`, whose output is float16;
   * `q8` writes the float graph as `onnx/model_quantized.onnx`. Default `fp32`.
   */
  dtype?: 'fp32' | 'fp16' | 'q8';
  /** `model_max_length` in `tokenizer_config.json`; `null` leaves it out. Default 512. */
  maxLength?: number | null;
  /** `max_position_embeddings` in `config.json`. Default 512. */
  maxPositions?: number;
}

export interface TinyModel {
  /** The model folder. */
  path: string;
  hiddenSize: number;
  /** Token → id, special tokens included. */
  vocab: ReadonlyMap<string, number>;
  /** Embedding row of every token id. */
  table: readonly Float32Array[];
  /** The ONNX file written, relative to `path`. */
  onnxFile: string;
}

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export const DEFAULT_WORDS = [
  'hello',
  'world',
  'my',
  'credit',
  'card',
  'was',
  'stolen',
  'what',
  'is',
  'the',
  'weather',
  'forecast',
  'will',
  'it',
  'rain',
  'tomorrow',
] as const;

/** Writes a tiny model and returns where it is and what its embedding table holds. */
export async function makeTinyModel(options: TinyModelOptions = {}): Promise<TinyModel> {
  const hiddenSize = options.hiddenSize ?? 16;
  const words = options.words ?? DEFAULT_WORDS;
  const dtype = options.dtype ?? 'fp32';
  const dir =
    options.dir ?? path.join(await mkdtemp(path.join(tmpdir(), 'treeagent-tiny-model-')), 'tiny-bert');

  const tokens = [...SPECIAL_TOKENS, ...words];
  const vocab = new Map(tokens.map((token, id) => [token, id]));
  const table = embeddingTable(tokens, hiddenSize);
  const onnxFile = `onnx/model${{ fp32: '', fp16: '_fp16', q8: '_quantized' }[dtype]}.onnx`;

  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await writeJson(path.join(dir, 'config.json'), {
    architectures: ['BertModel'],
    model_type: 'bert',
    vocab_size: tokens.length,
    hidden_size: hiddenSize,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: hiddenSize,
    hidden_act: 'gelu',
    max_position_embeddings: options.maxPositions ?? 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
  });
  await writeJson(path.join(dir, 'tokenizer.json'), tokenizerJson(vocab));
  await writeJson(path.join(dir, 'tokenizer_config.json'), {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    ...(options.maxLength === null ? {} : { model_max_length: options.maxLength ?? 512 }),
    unk_token: '[UNK]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  });
  await writeFile(path.join(dir, onnxFile), encodeModel(table, hiddenSize, dtype === 'fp16'));
  return { path: dir, hiddenSize, vocab, table, onnxFile };
}

/** Deterministic rows: `[PAD]` is zero, words get their own axis, everything gets a little noise. */
function embeddingTable(tokens: readonly string[], hiddenSize: number): Float32Array[] {
  const random = mulberry32(0x7ee);
  return tokens.map((token, id) => {
    const row = new Float32Array(hiddenSize);
    if (token === '[PAD]') return row;
    const wordIndex = id - SPECIAL_TOKENS.length;
    for (let i = 0; i < hiddenSize; i++) row[i] = (random() - 0.5) * (wordIndex >= 0 ? 0.1 : 0.4);
    if (wordIndex >= 0) row[wordIndex % hiddenSize]! += 1;
    return row;
  });
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A BERT-style WordPiece tokenizer: lower-casing normaliser, `[CLS] … [SEP]` template. */
function tokenizerJson(vocab: ReadonlyMap<string, number>): unknown {
  const special = (token: string) => ({ id: token, type_id: 0 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: vocab.get(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
      ],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [vocab.get(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab),
    },
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

// --- ONNX encoding -------------------------------------------------------------------------------

/** The subset of onnx.proto (field numbers as in github.com/onnx/onnx/blob/main/onnx/onnx.proto). */
const onnxSchema = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            producer_version: { type: 'string', id: 3 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: 'string', id: 1 },
            version: { type: 'int64', id: 2 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            i: { type: 'int64', id: 3 },
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            data_type: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
          },
        },
        TypeProto: {
          fields: { tensor_type: { type: 'Tensor', id: 1 } },
          nested: {
            Tensor: {
              fields: {
                elem_type: { type: 'int32', id: 1 },
                shape: { type: 'TensorShapeProto', id: 2 },
              },
            },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: {
              fields: {
                dim_value: { type: 'int64', id: 1 },
                dim_param: { type: 'string', id: 2 },
              },
            },
          },
        },
      },
    },
  },
});

/** TensorProto.DataType and AttributeProto.AttributeType values used here. */
const FLOAT = 1;
const INT64 = 7;
const FLOAT16 = 10;
const ATTRIBUTE_INT = 2;

function encodeModel(table: readonly Float32Array[], hiddenSize: number, float16Output: boolean): Uint8Array {
  const tokenInput = (name: string) => valueInfo(name, INT64, ['batch_size', 'sequence_length']);
  const output = float16Output ? 'hidden_float32' : 'last_hidden_state';
  const node = (op_type: string, input: string[], outputName: string, attribute: object[] = []) => ({
    op_type,
    name: `${op_type}_${outputName}`,
    input,
    output: [outputName],
    attribute,
  });
  const intAttribute = (name: string, value: number) => ({ name, i: value, type: ATTRIBUTE_INT });
  const tokenTypes = [new Float32Array(hiddenSize), new Float32Array(hiddenSize).fill(0.05)];

  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], 'word_vectors'),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], 'type_vectors'),
    node('Add', ['word_vectors', 'type_vectors'], 'token_vectors'),
    node('Cast', ['attention_mask'], 'mask_float', [intAttribute('to', FLOAT)]),
    node('Unsqueeze', ['mask_float', 'last_axis'], 'mask_3d'),
    node('Mul', ['token_vectors', 'mask_3d'], output),
  ];
  if (float16Output) nodes.push(node('Cast', [output], 'last_hidden_state', [intAttribute('to', FLOAT16)]));

  const ModelProto = onnxSchema.lookupType('onnx.ModelProto');
  const model = ModelProto.fromObject({
    ir_version: 8,
    producer_name: 'treeagent-make-tiny-model',
    producer_version: '1',
    opset_import: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny_bert',
      node: nodes,
      initializer: [
        floatTensor('word_embeddings', table, hiddenSize),
        floatTensor('token_type_embeddings', tokenTypes, hiddenSize),
        { name: 'last_axis', data_type: INT64, dims: [1], raw_data: int64Bytes([-1]) },
      ],
      input: [tokenInput('input_ids'), tokenInput('attention_mask'), tokenInput('token_type_ids')],
      output: [
        valueInfo('last_hidden_state', float16Output ? FLOAT16 : FLOAT, [
          'batch_size',
          'sequence_length',
          hiddenSize,
        ]),
      ],
    },
  });
  return ModelProto.encode(model).finish();
}

function valueInfo(name: string, elemType: number, dims: readonly (string | number)[]): object {
  return {
    name,
    type: {
      tensor_type: {
        elem_type: elemType,
        shape: {
          dim: dims.map((dim) => (typeof dim === 'number' ? { dim_value: dim } : { dim_param: dim })),
        },
      },
    },
  };
}

function floatTensor(name: string, rows: readonly Float32Array[], width: number): object {
  const bytes = new Uint8Array(rows.length * width * 4);
  const view = new DataView(bytes.buffer);
  for (const [r, row] of rows.entries()) {
    for (const [c, value] of row.entries()) view.setFloat32((r * width + c) * 4, value, true);
  }
  return { name, data_type: FLOAT, dims: [rows.length, width], raw_data: bytes };
}

function int64Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  for (const [i, value] of values.entries()) view.setBigInt64(i * 8, BigInt(value), true);
  return bytes;
}
