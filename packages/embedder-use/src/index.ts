export {
  USE_STUDENT_ID,
  UseStudentEmbedder,
  type UseStudentEmbedderOptions,
} from './student/use-student-embedder.js';
export { UseEmbedder, type UseEmbedderOptions, type UseEmbedderThread } from './use-embedder.js';
export type { UseRuntime } from './use-runtime.js';
