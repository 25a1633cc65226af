/**
 * The built-in detectors of personal data (docs/privacy.md). Each reads candidates that start and end
 * at word boundaries and keeps only those that pass its check (a checksum where the format has one),
 * retrying shorter readings when a longer one fails, so the value is found whatever follows it and
 * order numbers, dates, prices and codes that merely look alike are left alone.
 */
import { findCodiciFiscali } from './codice-fiscale-detector.js';
import { findEmails } from './email-detector.js';
import { findIbans } from './iban-detector.js';
import { findPaymentCards } from './payment-card-detector.js';
import { findPhoneNumbers } from './phone-detector.js';
import type { TextSpan } from './text-span.js';

export { isValidCodiceFiscale, isValidIban, passesLuhn } from './checksums.js';
export type { TextSpan } from './text-span.js';

/** Names of the built-in detectors. */
export type DetectorName = 'email' | 'iban' | 'payment-card' | 'codice-fiscale' | 'phone';

/**
 * The built-in detectors, in the order they run (the more specific first). Each runs on the text the
 * ones before it left, so where two could read the same characters the earlier one wins and the later
 * one sees its placeholder.
 */
export const DETECTOR_NAMES: readonly DetectorName[] = [
  'email',
  'iban',
  'payment-card',
  'codice-fiscale',
  'phone',
];

/** One detector: its name (the placeholder `[name]`) and where its values are in a text. */
export interface Detector {
  /** Its name, shown in the placeholder `[name]`. */
  name: string;
  /** The spans of `text` holding a value: sorted, not overlapping. */
  find(text: string): TextSpan[];
}

/** The built-in detectors by name. */
export const BUILT_IN_DETECTORS: Readonly<Record<DetectorName, Detector>> = {
  email: { name: 'email', find: findEmails },
  iban: { name: 'iban', find: findIbans },
  'payment-card': { name: 'payment-card', find: findPaymentCards },
  'codice-fiscale': { name: 'codice-fiscale', find: findCodiciFiscali },
  phone: { name: 'phone', find: findPhoneNumbers },
};
