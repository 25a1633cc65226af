export { FORM_NODE_IDS, type FormSelf, form } from './form/form.js';
export { formFallback, formResumeTarget } from './form/form-fallback.js';
export type { FormPhase, FormStep } from './form/form-flow.js';
export type { FormCompleteResult, FormOptions } from './form/form-options.js';
export {
  ACTIVE_FORM_KEY,
  type ActiveForm,
  activeForm,
  type FormLogEntry,
  type FormState,
  formKey,
} from './form/form-state.js';
export type { FormDebugSummary } from './form/form-texts.js';
export { formatValue } from './form/format-value.js';
export { extractionSchema } from './form/llm-extraction.js';
export { type FormMessages, formMessages } from './form/messages.js';
export {
  type Extraction,
  type ExtractionInput,
  type ExtractionMiss,
  type ExtractionResult,
  extractSlots,
} from './slots/extract-slots.js';
export { isCancel, isDontKnow, isNo, isYes } from './slots/intents.js';
export type { ParseClock } from './slots/parse-types.js';
export type {
  CustomParse,
  FormLanguage,
  SlotDefinition,
  SlotErrorCode,
  SlotRejection,
  SlotSource,
  SlotType,
} from './slots/slot-definition.js';
