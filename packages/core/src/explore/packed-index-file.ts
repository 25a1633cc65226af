import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Tree } from '../tree/tree.js';
import type { ThresholdCalibration } from './calibrate-thresholds.js';
import type { RowReader } from './chunk-index/file-rows.js';
import { ChunkIndex, type ExploreScan, SIGN_SCAN_FROM } from './chunk-index.js';
import {
  allocateInt8Values,
  allocateQuantizedRows,
  type QuantizedRows,
  quantizeRows,
} from './quantized-rows.js';

/**
 * The packed index file: everything exploration keeps of a tree's chunk vectors, in one file per
 * tree content and exploration embedder, so that the next start reads it in a few large reads
 * instead of asking the embedding cache for every chunk (docs/architecture.md, "Packed index files").
 *
 * ```text
 * 0   "TAPACK\r\n"                 magic (8 bytes)
 * 8   u32 LE                        length of the header
 * 12  header (JSON, UTF-8)          format, tree name, content hash, embedder id, dimensions, chunks,
 *                                   scan, layout, calibrated thresholds, and each section's offset,
 *                                   length and checksum; the file's total length
 * …   sections, each at a multiple of 64 bytes:
 *     columns    float32  sparse dimensions × chunks       (read at start)
 *     scales     float32  chunks      int8 row scales      (read at start, rows in the file)
 *     residuals  float32  chunks      int8 error norms     (read at start, rows in the file)
 *     values     int8     chunks × stride                  (read at start, rows in the file)
 *     codes      bytes    chunks × code bytes  sign bits   (read at start into WebAssembly memory)
 *     rows       float32  chunks × stride                  (sign-bit indexes from ROWS_IN_FILE_FROM
 *                                                          chunks: stay in the file and are read a
 *                                                          few rows per decision; else read at start)
 * ```
 *
 * Written to a temporary name and renamed, so a reader never sees half a file. A file whose header,
 * length or checksums do not match is ignored (the caller logs why and loads chunk by chunk).
 */
const MAGIC = 'TAPACK\r\n';
/** Bumped whenever the layout of the file or what it keys on changes. */
export const PACKED_INDEX_FORMAT = 1;
const ALIGN = 64;
/** Rows written per call (about 64 MB at 384 dimensions). */
const WRITE_ROWS = 1 << 16;
/** Rows of a file-backed index whose sign bits and int8 values are checked against its float32 rows at start. */
const SPOT_CHECKS = 64;
export const PACKED_INDEX_EXTENSION = '.tapack';

type SectionName = 'columns' | 'scales' | 'residuals' | 'values' | 'codes' | 'rows';
const RESIDENT: SectionName[] = ['columns', 'scales', 'residuals', 'values'];

interface Section {
  offset: number;
  bytes: number;
  checksum: number;
}

interface PackedHeader {
  format: number;
  tree: string;
  contentHash: string;
  embedderId: string;
  dimensions: number;
  chunks: number;
  scan: ExploreScan;
  signBits: boolean;
  /** The float32 rows stay in the file (read per decision); the int8 rows are then present. */
  rowsInFile: boolean;
  dense: number[];
  sparse: number[];
  stride: number;
  codeBytes: number;
  /** `calibrationKey` of the calibration the thresholds below came from. */
  calibration: string;
  calibrations: ThresholdCalibration[];
  sections: Record<SectionName, Section>;
  fileBytes: number;
}

/** What identifies the packed index of a tree: what it was built from. */
export interface PackedIndexKey {
  tree: Tree;
  embedderId: string;
  /** The embedder's dimensions when known in advance (checked against the file). */
  dimensions?: number | undefined;
  scan: ExploreScan;
}

/** A packed index read back: the index, and the thresholds calibrated when it was written. */
export interface PackedIndex {
  index: ChunkIndex;
  file: string;
  /** The key of the calibration the thresholds came from (`calibrationKey`). */
  calibration: string;
  calibrations: ThresholdCalibration[];
}

/** A packed index file that exists but cannot be used, and why. */
export class StalePackedIndex extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** The key of a calibration setting, as stored in the file (`false`: none). */
export function calibrationKey(calibration: unknown): string {
  return JSON.stringify(calibration ?? null);
}

/** The file of a tree's packed index in `directory`: `<tree name>-<embedder>-<content>.tapack`. */
export function packedIndexFile(directory: string, key: PackedIndexKey): string {
  return join(
    directory,
    `${filePrefix(key)}${digest(`${PACKED_INDEX_FORMAT}\n${key.tree.contentHash}\n${key.embedderId}\n${key.scan}`).slice(0, 16)}${PACKED_INDEX_EXTENSION}`,
  );
}

function filePrefix(key: PackedIndexKey): string {
  const name = key.tree.name.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 60) || 'tree';
  return `${name}-${digest(key.embedderId).slice(0, 8)}-`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Reads the packed index of `key` from `directory`: `null` when there is none; throws
 * `StalePackedIndex` (saying why) when the file is there but does not match the tree, the embedder
 * or its own checksums — never an index that could answer differently from one built chunk by chunk.
 */
export function readPackedIndex(directory: string, key: PackedIndexKey): PackedIndex | null {
  const file = packedIndexFile(directory, key);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StalePackedIndex(file, `cannot open it (${(error as Error).message})`);
  }
  let keepOpen = false;
  try {
    const size = fstatSync(fd).size;
    const header = readHeader(fd, file, size);
    checkHeader(header, key, size, file);
    const { tree } = key;
    const count = tree.chunks.length;
    const { sections } = header;
    // One read for the small resident sections (they are contiguous), views into it; the int8
    // values are read straight into the WebAssembly memory of their kernel (below).
    const first = sections[RESIDENT[0]!];
    const last = sections.residuals;
    const resident = new Uint8Array(last.offset + last.bytes - first.offset);
    readFully(fd, resident, first.offset, file);
    const view = <T>(
      name: SectionName,
      make: (buffer: ArrayBuffer, offset: number, length: number) => T,
      size: number,
    ) => {
      const section = sections[name];
      const bytes = new Uint8Array(resident.buffer, section.offset - first.offset, section.bytes);
      if (checksum(bytes) !== section.checksum)
        throw new StalePackedIndex(file, `the ${name} section fails its checksum`);
      return make(resident.buffer, section.offset - first.offset, section.bytes / size);
    };
    const columns = view('columns', (b, o, l) => new Float32Array(b, o, l), 4);
    const readSection = (name: SectionName, into: Uint8Array) => {
      const section = sections[name];
      if (into.byteLength !== section.bytes)
        throw new StalePackedIndex(
          file,
          `the ${name} section holds ${section.bytes} bytes, the index needs ${into.byteLength}`,
        );
      readFully(fd, into, section.offset, file);
      if (checksum(into) !== section.checksum)
        throw new StalePackedIndex(file, `the ${name} section fails its checksum`);
    };
    let quantized: QuantizedRows | null = null;
    if (header.rowsInFile) {
      const values = allocateInt8Values(count, header.stride);
      readSection(
        'values',
        new Uint8Array(values.values.buffer, values.values.byteOffset, values.values.byteLength),
      );
      quantized = {
        scales: view('scales', (b, o, l) => new Float32Array(b, o, l), 4),
        residuals: view('residuals', (b, o, l) => new Float32Array(b, o, l), 4),
        values: values.values,
        stride: header.stride,
        kernel: values.kernel,
      };
    }
    const reader = rowReader(fd, file, sections.rows.offset, header.stride * 4);
    let index: ChunkIndex;
    try {
      index = ChunkIndex.fromPacked(tree, {
        dimensions: header.dimensions,
        denseDimensions: Int32Array.from(header.dense),
        sparseDimensions: Int32Array.from(header.sparse),
        scan: header.scan,
        columns,
        readCodes: (codes) => {
          // Written when this tree was below the sign-bit threshold of the engine that wrote it.
          if (!header.signBits)
            throw new StalePackedIndex(
              file,
              `it was written without sign bits, which this version keeps for a tree of ${count} chunks (SIGN_SCAN_FROM is ${SIGN_SCAN_FROM})`,
            );
          readSection('codes', codes);
        },
        rows: quantized
          ? { reader, quantized }
          : {
              readRows: (rows) =>
                readSection('rows', new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength)),
            },
      });
    } catch (error) {
      if (error instanceof StalePackedIndex) throw error;
      throw new StalePackedIndex(file, `it cannot be restored here (${(error as Error).message})`);
    }
    if (
      index.signBits !== header.signBits ||
      index.stride !== header.stride ||
      index.codeBits !== header.codeBytes * 8
    )
      throw new StalePackedIndex(file, 'its layout is not the one this engine builds for the tree');
    if (quantized) {
      spotCheck(index, quantized, reader, count, file);
      keepOpen = true;
      closeWhenCollected(index, reader);
    }
    return { index, file, calibration: header.calibration, calibrations: header.calibrations };
  } catch (error) {
    if (error instanceof StalePackedIndex) throw error;
    throw new StalePackedIndex(file, (error as Error).message);
  } finally {
    if (!keepOpen) closeFile(fd);
  }
}

/**
 * Writes the packed index of `index` (built for `key`) and its calibrated thresholds to `directory`,
 * then removes the older files of the same tree and embedder. With sign bits, it also quantises the
 * rows (kept in the returned `quantized`) and returns a `reader` of the written rows, to hand to
 * `ChunkIndex.useRowFile`; otherwise `reader` is `null`.
 */
export function writePackedIndex(
  directory: string,
  key: PackedIndexKey,
  index: ChunkIndex,
  calibration: { key: string; calibrations: readonly ThresholdCalibration[] },
): { file: string; reader: RowReader | null; quantized: QuantizedRows | null } {
  const count = key.tree.chunks.length;
  const rows = index.rows;
  const stride = index.stride;
  const rowsInFile = index.rowsInFileWhenPacked;
  const quantized = rowsInFile ? allocateQuantizedRows(count, stride) : null;
  if (quantized) quantizeRows(rows, stride, 0, count, quantized);
  const codes = index.signCodes ?? new Uint8Array(0);
  const bytesOf = (array: ArrayBufferView) =>
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const content: Record<SectionName, Uint8Array> = {
    columns: bytesOf(index.columns),
    scales: quantized ? bytesOf(quantized.scales) : new Uint8Array(0),
    residuals: quantized ? bytesOf(quantized.residuals) : new Uint8Array(0),
    values: quantized ? bytesOf(quantized.values) : new Uint8Array(0),
    codes,
    rows: bytesOf(rows),
  };
  const order: SectionName[] = [...RESIDENT, 'codes', 'rows'];
  const header: PackedHeader = {
    format: PACKED_INDEX_FORMAT,
    tree: key.tree.name,
    contentHash: key.tree.contentHash,
    embedderId: key.embedderId,
    dimensions: index.dimensions,
    chunks: count,
    scan: key.scan,
    signBits: index.signBits,
    rowsInFile,
    dense: Array.from(index.denseDimensions),
    sparse: Array.from(index.sparseDimensions),
    stride,
    codeBytes: index.codeBits / 8,
    calibration: calibration.key,
    calibrations: [...calibration.calibrations],
    sections: {} as Record<SectionName, Section>,
    fileBytes: 0,
  };
  // The header's length depends on the offsets it holds: lay out with room for the largest numbers.
  let headerBytes = Buffer.byteLength(JSON.stringify(header)) + order.length * 64 + 64;
  let offset = align(12 + headerBytes);
  for (const name of order) {
    header.sections[name] = { offset, bytes: content[name].byteLength, checksum: checksum(content[name]) };
    offset = align(offset + content[name].byteLength);
  }
  header.fileBytes = offset;
  const json = Buffer.from(JSON.stringify(header));
  if (json.length > headerBytes) throw new Error('packed index: the header outgrew its room');
  headerBytes = json.length;
  const file = packedIndexFile(directory, key);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const temporary = join(directory, `.${file.slice(directory.length + 1)}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', 0o600);
  try {
    const prefix = Buffer.alloc(12);
    prefix.write(MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(headerBytes, 8);
    writeFully(fd, prefix, 0);
    writeFully(fd, json, 12);
    for (const name of order) {
      const bytes = content[name];
      const piece = name === 'rows' ? WRITE_ROWS * stride * 4 : bytes.byteLength || 1;
      for (let start = 0; start < bytes.byteLength; start += piece)
        writeFully(
          fd,
          bytes.subarray(start, Math.min(bytes.byteLength, start + piece)),
          header.sections[name].offset + start,
        );
    }
    // The last section may end before the aligned length: the length is part of the check.
    if (header.sections.rows.offset + header.sections.rows.bytes < header.fileBytes)
      writeFully(
        fd,
        new Uint8Array(header.fileBytes - header.sections.rows.offset - header.sections.rows.bytes),
        header.sections.rows.offset + header.sections.rows.bytes,
      );
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  removeOlder(directory, key, file);
  if (!quantized) return { file, reader: null, quantized: null };
  const reader = rowReader(openSync(file, 'r'), file, header.sections.rows.offset, stride * 4);
  return { file, quantized, reader };
}

/** Reads float32 rows of `rowBytes` bytes each from the rows section (at `rowsAt`) of an open file. */
function rowReader(fd: number, file: string, rowsAt: number, rowBytes: number): RowReader {
  let open = true;
  return {
    description: file,
    read(into, from, rows) {
      readFully(fd, into.subarray(0, rows * rowBytes), rowsAt + from * rowBytes, file);
    },
    close() {
      if (open) closeFile(fd);
      open = false;
    },
  };
}

/** Closes `reader` when `index` is collected (an agent dropped, a fitted space swapped in). */
export function closeWhenCollected(index: ChunkIndex, reader: RowReader): void {
  collected.register(index, reader);
}

const collected = new FinalizationRegistry<RowReader>((reader) => reader.close());

/** Removes the files of older contents of the same tree and embedder (not temporary files of other writers). */
function removeOlder(directory: string, key: PackedIndexKey, keep: string): void {
  const prefix = filePrefix(key);
  for (const name of readdirSync(directory)) {
    if (!name.startsWith(prefix) || !name.endsWith(PACKED_INDEX_EXTENSION)) continue;
    const path = join(directory, name);
    if (path !== keep) rmSync(path, { force: true });
  }
}

function readHeader(fd: number, file: string, size: number): PackedHeader {
  if (size < 12) throw new StalePackedIndex(file, `it is ${size} bytes long, shorter than a header`);
  const prefix = new Uint8Array(12);
  readFully(fd, prefix, 0, file);
  if (Buffer.from(prefix.subarray(0, 8)).toString('latin1') !== MAGIC)
    throw new StalePackedIndex(file, 'it is not a packed index file (wrong magic bytes)');
  const length = Buffer.from(prefix).readUInt32LE(8);
  if (length > size - 12) throw new StalePackedIndex(file, 'its header runs past the end of the file');
  const json = new Uint8Array(length);
  readFully(fd, json, 12, file);
  try {
    return JSON.parse(Buffer.from(json).toString('utf8')) as PackedHeader;
  } catch {
    throw new StalePackedIndex(file, 'its header is not valid JSON');
  }
}

function checkHeader(header: PackedHeader, key: PackedIndexKey, size: number, file: string): void {
  const mismatch = (what: string, found: unknown, expected: unknown) =>
    new StalePackedIndex(
      file,
      `it was written for ${what} ${JSON.stringify(found)}, not ${JSON.stringify(expected)}`,
    );
  if (header.format !== PACKED_INDEX_FORMAT) throw mismatch('format', header.format, PACKED_INDEX_FORMAT);
  if (header.contentHash !== key.tree.contentHash)
    throw mismatch('tree content', header.contentHash, key.tree.contentHash);
  if (header.embedderId !== key.embedderId) throw mismatch('embedder', header.embedderId, key.embedderId);
  if (header.chunks !== key.tree.chunks.length)
    throw mismatch('chunk count', header.chunks, key.tree.chunks.length);
  if (header.scan !== key.scan) throw mismatch('scan', header.scan, key.scan);
  if (key.dimensions !== undefined && header.dimensions !== key.dimensions)
    throw mismatch('dimensions', header.dimensions, key.dimensions);
  if (header.fileBytes !== size)
    throw new StalePackedIndex(
      file,
      `it is ${size} bytes long, its header says ${header.fileBytes} (cut short or appended to)`,
    );
  for (const name of [...RESIDENT, 'codes', 'rows'] as SectionName[]) {
    const section = header.sections?.[name];
    if (!section || section.offset % ALIGN !== 0 || section.offset + section.bytes > size)
      throw new StalePackedIndex(file, `its ${name} section is missing or out of bounds`);
  }
}

/**
 * Reads `SPOT_CHECKS` evenly spaced float32 rows of a file-backed index and checks that their sign
 * bits and int8 values are the ones at start: rows that do not belong to the rest are found before
 * any decision uses them.
 */
function spotCheck(
  index: ChunkIndex,
  quantized: QuantizedRows,
  reader: RowReader,
  count: number,
  file: string,
): void {
  const stride = index.stride;
  const row = new Float32Array(stride);
  const check = allocateQuantizedRows(1, stride);
  const codes = index.signCodes!;
  const codeBytes = index.codeBits / 8;
  const step = Math.max(1, Math.floor(count / SPOT_CHECKS));
  for (let position = 0; position < count; position += step) {
    reader.read(new Uint8Array(row.buffer), position, 1);
    quantizeRows(row, stride, 0, 1, check);
    let same = check.scales[0] === quantized.scales[position];
    for (let j = 0; same && j < stride; j++) {
      same = check.values[j] === quantized.values[position * stride + j];
      const bit = (codes[position * codeBytes + (j >> 3)]! >> (j & 7)) & 1;
      if (same && bit !== (row[j]! > 0 ? 1 : 0)) same = false;
    }
    if (!same)
      throw new StalePackedIndex(
        file,
        `its float32 row ${position} does not match its sign bits and int8 values`,
      );
  }
}

/** A 32-bit checksum of `bytes` (two multiplicative lanes over 32-bit words; the length is a multiple of 4). */
export function checksum(bytes: Uint8Array): number {
  const words = bytes.byteLength >> 2;
  const view =
    bytes.byteOffset % 4 === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset, words)
      : new Int32Array(bytes.slice(0, words * 4).buffer);
  let a = 0x811c9dc5 | 0;
  let b = 0x6a09e667 | 0;
  const end = words & ~1;
  for (let i = 0; i < end; i += 2) {
    a = Math.imul(a ^ view[i]!, 0x01000193);
    b = Math.imul(b ^ view[i + 1]!, 0x5bd1e995);
  }
  if (end < words) a = Math.imul(a ^ view[end]!, 0x01000193);
  for (let i = words * 4; i < bytes.byteLength; i++) b = Math.imul(b ^ bytes[i]!, 0x5bd1e995);
  return (Math.imul(a ^ (b >>> 15), 0x2c1b3c6d) ^ b ^ bytes.byteLength) >>> 0;
}

function align(value: number): number {
  return Math.ceil(value / ALIGN) * ALIGN;
}

function readFully(fd: number, into: Uint8Array, position: number, file: string): void {
  let done = 0;
  while (done < into.byteLength) {
    const read = readSync(fd, into, done, into.byteLength - done, position + done);
    if (read === 0)
      throw new TreeAgentError(
        'EMBEDDER',
        `The packed index file ${file} ended early (at byte ${position + done}): it was cut short while in use. Delete it and restart; the next start rebuilds it.`,
      );
    done += read;
  }
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.byteLength)
    done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
}

function closeFile(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
