/** Test helpers: write GGUF files, including a tiny llama model with random weights. */
export {
  encodeGguf,
  type GgufContent,
  type GgufTensor,
  type GgufValue,
  writeGguf,
} from './gguf-writer.js';
export { type TinyGgufInfo, type TinyGgufOptions, writeTinyGguf } from './write-tiny-gguf.js';
