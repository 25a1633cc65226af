import { describe, expect, it } from 'vitest';
import { messageOf } from './widget-client';
import { handoffText } from './widget-handoff-text';
import { WidgetTexts } from './widget-i18n';

describe("the widget's handoff rows", () => {
  const claim = { type: 'claim' as const, operator: { name: 'Bruno' } };
  const row = { role: 'system', content: 'Bruno joined the conversation.', handoff: claim };

  it('keep the transition of a system row, so its text can follow the locale', () => {
    expect(messageOf(row, 'h0').handoff).toEqual(claim);
    expect(messageOf({ role: 'assistant', content: 'Hi', handoff: claim }, 'h1').handoff).toBeUndefined();
  });

  it("are written in the widget's language, not the recorded English", () => {
    expect(handoffText(new WidgetTexts('it-IT'), claim)).toBe('Bruno è entrato nella conversazione.');
    expect(handoffText(new WidgetTexts('en'), claim)).toBe('Bruno joined the conversation.');
    expect(handoffText(new WidgetTexts('es'), { type: 'start', reason: 'pedido' })).toBe(
      'La conversación pasó a una persona.',
    );
    expect(handoffText(new WidgetTexts('it'), { type: 'end', outcome: 'user-returned' })).toBe(
      "Sei tornato all'assistente.",
    );
    expect(handoffText(new WidgetTexts('it'), { type: 'end', outcome: 'handed-back', operator: null })).toBe(
      "Un operatore ha restituito la conversazione all'assistente.",
    );
  });

  it("never show the handoff's reason, which is for operators only (docs/concepts.md)", () => {
    const start = { type: 'start' as const, reason: 'angry customer, refund over 500 EUR' };
    expect(handoffText(new WidgetTexts('en'), start)).toBe('The conversation was handed to a person.');
    for (const locale of ['en', 'es', 'it'])
      expect(handoffText(new WidgetTexts(locale), start), locale).not.toContain('angry');
  });
});
