/** Test helpers: write GGUF files, including a tiny llama model with random weights. */
export {
  encodeGguf,
  type GgufContent,
  type GgufTensor,
  type GgufValue,
  writeGguf,
} from './testing/gguf-writer.js';
export { type TinyGgufInfo, type TinyGgufOptions, writeTinyGguf } from './testing/write-tiny-gguf.js';
