/**
 * `@treeagent/core/privacy`: personal data redaction (docs/privacy.md) — the detectors, `Redactor`
 * (the `redaction` option of `TreeAgent` takes its options or an instance) and the redaction of a
 * commit a server applies to what it stores and logs.
 */

export { isValidCodiceFiscale, isValidIban, passesLuhn } from './privacy/checksums.js';
export { BUILT_IN_DETECTORS, DETECTOR_NAMES, type Detector, type DetectorName } from './privacy/detectors.js';
export { redactCommit } from './privacy/redact-commit.js';
export {
  type Redaction,
  type RedactionOptions,
  type RedactionPattern,
  Redactor,
} from './privacy/redactor.js';
export type { TextSpan } from './privacy/text-span.js';
