import type { FormLanguage, SlotErrorCode } from '../slots/slot-definition.js';

/** The texts a form says on its own; every one can be replaced through `FormOptions.messages`. */
export interface FormMessages {
  /** Before the summary at the confirmation step. */
  summaryIntro: string;
  /** After the summary. */
  confirmQuestion: string;
  /** The two options of the confirmation. */
  yes: string;
  no: string;
  /** Asked after a "no" to the summary. */
  whatToChange: string;
  /** Sent when the user cancels. */
  cancelled: string;
  /** Sent when the form is complete and `onComplete` returned no message. */
  completed: string;
  /** Before the question again, after a digression answered by another node. */
  resume: string;
  /** Before the question again, when a required slot got "I don't know". */
  required: string;
  /** Before the question again when the reply had no value. */
  notUnderstood: string;
  /** The reason a value was refused, by error. */
  errors: Record<SlotErrorCode, string>;
  /** Shown in the summary for an optional slot left empty. */
  empty: string;
}

const ITALIAN: FormMessages = {
  summaryIntro: 'Riepilogo:',
  confirmQuestion: 'Confermi?',
  yes: 'Sì',
  no: 'No',
  whatToChange: 'Cosa vuoi cambiare?',
  cancelled: 'Va bene, lascio stare. Se ti serve altro sono qui.',
  completed: 'Fatto, grazie!',
  resume: 'Riprendiamo da dove eravamo.',
  required: 'Questa informazione mi serve per andare avanti.',
  notUnderstood: 'Non ho capito.',
  errors: {
    'invalid-date': 'Quella data non esiste.',
    'past-date': 'Quella data è già passata.',
    'future-date': 'Quella data è nel futuro.',
    'invalid-time': "Quell'orario non esiste.",
    'missing-time': "Mi serve anche l'ora.",
    'missing-date': 'Mi serve anche il giorno.',
    'invalid-phone': 'Il numero di telefono non sembra valido.',
    'invalid-email': "L'indirizzo e-mail non sembra valido.",
    'not-integer': 'Mi serve un numero intero.',
    'out-of-range': 'Il valore è fuori dai limiti consentiti.',
    ambiguous: 'Ne hai indicato più di uno.',
    'no-match': 'Il formato non è quello atteso.',
    invalid: 'Il valore non è valido.',
  },
  empty: 'non indicato',
};

const ENGLISH: FormMessages = {
  summaryIntro: 'Summary:',
  confirmQuestion: 'Is that right?',
  yes: 'Yes',
  no: 'No',
  whatToChange: 'What would you like to change?',
  cancelled: 'Fine, I will drop it. Let me know if you need anything else.',
  completed: 'Done, thank you!',
  resume: "Let's pick up where we left off.",
  required: 'I need this to go on.',
  notUnderstood: "I didn't get that.",
  errors: {
    'invalid-date': 'That date does not exist.',
    'past-date': 'That date is in the past.',
    'future-date': 'That date is in the future.',
    'invalid-time': 'That time does not exist.',
    'missing-time': 'I also need the time.',
    'missing-date': 'I also need the day.',
    'invalid-phone': 'That phone number does not look valid.',
    'invalid-email': 'That e-mail address does not look valid.',
    'not-integer': 'I need a whole number.',
    'out-of-range': 'That value is out of the allowed range.',
    ambiguous: 'You gave more than one.',
    'no-match': 'That is not in the expected format.',
    invalid: 'That value is not valid.',
  },
  empty: 'not given',
};

/** The default texts of a language, with the given ones on top. */
export function formMessages(language: FormLanguage, overrides: Partial<FormMessages> = {}): FormMessages {
  const base = language === 'en' ? ENGLISH : ITALIAN;
  return { ...base, ...overrides, errors: { ...base.errors, ...(overrides.errors ?? {}) } };
}
