/**
 * The built-in detectors of personal data (docs/privacy.md). Each finds candidates with a pattern and
 * keeps only those that pass its check (a checksum where the format has one), so order numbers,
 * dates, prices and codes that merely look alike are left alone.
 */

/** Names of the built-in detectors. */
export type DetectorName = 'email' | 'iban' | 'payment-card' | 'codice-fiscale' | 'phone';

/** The built-in detectors, in the order they run (the more specific first). */
export const DETECTOR_NAMES: readonly DetectorName[] = [
  'email',
  'iban',
  'payment-card',
  'codice-fiscale',
  'phone',
];

/** One detector: a global pattern, and a check of each match. */
export interface Detector {
  name: string;
  pattern: RegExp;
  check?: (match: string) => boolean;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Luhn checksum (payment card numbers). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 check of an IBAN (spaces allowed): the rearranged number modulo 97 is 1. */
export function isValidIban(text: string): boolean {
  const iban = text.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

const CF_ODD: Record<string, number> = {};
const CF_ODD_VALUES = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];
for (let i = 0; i < 26; i++) {
  CF_ODD[String.fromCharCode(65 + i)] = CF_ODD_VALUES[i]!;
  if (i < 10) CF_ODD[String(i)] = CF_ODD_VALUES[i]!;
}

/** The check character of an Italian codice fiscale (including the omocodia variants). */
export function isValidCodiceFiscale(text: string): boolean {
  const code = text.toUpperCase();
  if (code.length !== 16) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const char = code[i]!;
    // Positions 1, 3, 5… (odd, 1-based) use the odd table; even ones count 0–9 / A–Z as 0–25.
    if (i % 2 === 0) sum += CF_ODD[char] ?? 0;
    else sum += char >= 'A' ? char.charCodeAt(0) - 65 : char.charCodeAt(0) - 48;
  }
  return String.fromCharCode(65 + (sum % 26)) === code[15];
}

/** A phone number: international (`+` or `00`, 8–15 digits) or Italian national (mobile 3…, landline 0…, 9–11 digits). */
function isPhone(match: string): boolean {
  const digits = digitsOf(match);
  if (/^(\+|00)/.test(match.trim())) return digits.length >= 8 && digits.length <= 15 + 2;
  return digits.length >= 9 && digits.length <= 11;
}

const CF_DIGIT = '[0-9LMNPQRSTUV]';

/** The built-in detectors by name. */
export const BUILT_IN_DETECTORS: Readonly<Record<DetectorName, Detector>> = {
  email: {
    name: 'email',
    pattern:
      /[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}/g,
  },
  iban: {
    name: 'iban',
    pattern: /\b[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]){11,30}\b/g,
    check: isValidIban,
  },
  'payment-card': {
    name: 'payment-card',
    pattern: /\b\d(?:[ -]?\d){12,18}\b/g,
    check: (match) => {
      const digits = digitsOf(match);
      return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
    },
  },
  'codice-fiscale': {
    name: 'codice-fiscale',
    pattern: new RegExp(
      `\\b[A-Za-z]{6}${CF_DIGIT}{2}[ABCDEHLMPRSTabcdehlmprst]${CF_DIGIT}{2}[A-Za-z]${CF_DIGIT}{3}[A-Za-z]\\b`,
      'gi',
    ),
    check: isValidCodiceFiscale,
  },
  phone: {
    name: 'phone',
    pattern:
      /(?:(?:\+|\b00)\d{1,3}[ .-]?(?:\(0?\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){1,4}|\b(?:3\d{2}|0\d{1,3})(?:[ .-]?\d{2,4}){2,3})\b/g,
    check: isPhone,
  },
};
