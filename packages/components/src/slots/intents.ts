import { fold } from './text.js';

/*
 * The few things a user says to a form rather than to a slot, in Italian and English: cancel it,
 * not know an answer, confirm or refuse the summary.
 */

const CANCEL =
  /\b(lascia(?:mo)? (?:stare|perdere)|lascia stare tutto|annull(?:a|are|iamo|o)|non (?:mi )?(?:interessa|serve) piu|non importa|ci ho ripensato|basta cosi|cancel(?:la)?|never ?mind|forget (?:about )?it|stop|quit|abort)\b/;
const DONT_KNOW =
  /\b(non (?:lo )?so|non saprei|non (?:me lo )?ricordo|boh|non ce l'ho|preferisco non dirlo|salta(?:mo)? (?:questa|la) domanda|i (?:do not|don't|dont) know|dunno|not sure|no idea|skip(?: it)?|i (?:do not|don't) have (?:one|it)|rather not say)\b/;
const YES =
  /^\s*(si|sì|certo|confermo|conferma|va bene|ok(?:ay)?|esatto|giusto|corretto|perfetto|d'accordo|yes|yep|yeah|sure|correct|confirm(?:ed)?|right|that's right|exactly|go ahead)\b/;
const NO =
  /^\s*(no|nope|non va bene|non e giusto|non e corretto|sbagliato|wrong|not quite|not right|change)\b/;

/** The user wants to leave the form ("lascia stare", "annulla", "cancel", "never mind"). */
export function isCancel(text: string): boolean {
  return CANCEL.test(fold(text));
}

/** The user does not know (or will not give) the answer ("non lo so", "I don't know", "skip"). */
export function isDontKnow(text: string): boolean {
  return DONT_KNOW.test(fold(text));
}

/** A yes to the confirmation ("sì", "va bene", "yes", "correct"). */
export function isYes(text: string): boolean {
  return YES.test(fold(text)) && !isNo(text);
}

/** A no to the confirmation ("no", "sbagliato", "wrong"). */
export function isNo(text: string): boolean {
  return NO.test(fold(text));
}
