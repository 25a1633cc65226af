import { describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/i18n';
import { tOf } from '../i18n/use-t';

describe("the unmatched clusters' heading", () => {
  it('says one message, or several, in each language', () => {
    const head = (count: number) => tOf('analytics')('unmatched.clusterHead', { count, distinct: 1 });
    setLocale('en');
    expect(head(1)).toBe('<strong>1</strong> message · 1 distinct');
    expect(head(3)).toBe('<strong>3</strong> messages · 1 distinct');
    setLocale('it');
    expect(head(1)).toBe('<strong>1</strong> messaggio · 1 distinto');
    expect(head(3)).toBe('<strong>3</strong> messaggi · 1 distinti');
    setLocale('en');
  });
});
