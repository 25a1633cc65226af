import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { matchesStoredOption } from './stored-option.js';

describe('matchesStoredOption', () => {
  it('a label the store keeps redacted matches the label the user was shown, and nothing else', () => {
    const redactor = new Redactor();
    const shown = 'Yes, write to giulia.verdi@example.org or +33 6 12 34 56 78';
    const stored = redactor.redactText(shown);
    expect(stored).toBe('Yes, write to [email] or [phone]');
    expect(matchesStoredOption(stored, shown)).toBe(true);
    expect(matchesStoredOption(stored, stored)).toBe(true);
    expect(matchesStoredOption('No', 'No')).toBe(true);
    expect(matchesStoredOption(stored, 'No')).toBe(false);
    expect(matchesStoredOption(stored, 'Yes, write to  or ')).toBe(false);
    expect(matchesStoredOption('Yes (1+1)?', 'Yes (1+1)?')).toBe(true);
    expect(matchesStoredOption('[email]?', 'a.b@example.org?')).toBe(true);
    expect(matchesStoredOption('[email]?', 'a.b@example.org!')).toBe(false);
  });
});
