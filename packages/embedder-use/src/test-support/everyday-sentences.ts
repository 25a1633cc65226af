/**
 * Everyday sentences that are in none of the student's training text (checked against the corpus
 * of bench/student/corpus.ts) and in no intent set we evaluate on: the agreement test's.
 */
export const EVERYDAY_SENTENCES = [
  'my bank card pin stopped working',
  'I want to change my PIN number',
  'will it rain tomorrow',
  'someone took my visa',
  'a thief took my wallet with all my cards',
  'book a table for two at eight tonight',
  'what time does the pharmacy close',
  'can I get a refund for my order',
  'the package never arrived',
  'play some jazz in the kitchen',
  'how many calories are in a banana',
  'turn off the lights in the bedroom',
  'I forgot my password again',
  'where is my nearest train station',
  'move fifty dollars over to savings',
  'what is the weather like in Paris this weekend',
  'my flight was cancelled, what are my options',
  'say something funny about my dog',
  'how long should I boil an egg',
  'please cancel my gym membership',
  'is the museum open on Mondays',
  'I would like to speak to a human',
];
