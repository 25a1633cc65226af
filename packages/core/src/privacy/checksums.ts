/** The checks that tell a real value from a number or code that only looks alike (docs/privacy.md). */

/** Luhn checksum (payment card numbers): `digits` holds digits only. */
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
  return ibanRemainder(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** The remainder modulo 97 of an IBAN's rearranged characters, letters counted as 10–35. */
export function ibanRemainder(rearranged: string): number {
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder;
}

const CF_ODD: Record<string, number> = {};
const CF_ODD_VALUES = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];
for (let i = 0; i < 26; i++) {
  CF_ODD[String.fromCharCode(65 + i)] = CF_ODD_VALUES[i]!;
  if (i < 10) CF_ODD[String(i)] = CF_ODD_VALUES[i]!;
}

/** The check character a codice fiscale's first 15 characters call for. */
export function codiceFiscaleCheck(first15: string): string {
  const code = first15.toUpperCase();
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const char = code[i]!;
    // Positions 1, 3, 5… (odd, 1-based) use the odd table; even ones count 0–9 / A–Z as 0–25.
    if (i % 2 === 0) sum += CF_ODD[char] ?? 0;
    else sum += char >= 'A' ? char.charCodeAt(0) - 65 : char.charCodeAt(0) - 48;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** The check character of an Italian codice fiscale (including the omocodia variants). */
export function isValidCodiceFiscale(text: string): boolean {
  const code = text.toUpperCase();
  return code.length === 16 && codiceFiscaleCheck(code) === code[15];
}
