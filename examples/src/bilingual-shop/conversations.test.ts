import { TreeAgent } from '@treeagent/core';
import { lintTree } from '@treeagent/core/evaluation';
import { describe, expect, test } from 'vitest';
import { bilingualShopTree, ids } from './tree.js';

/** The example as it runs: the default embedder and the default language identifier, nothing mocked. */
function agent(): TreeAgent {
  return new TreeAgent({ tree: bilingualShopTree() });
}

async function say(target: TreeAgent, session: string, message: string, selectedOption?: string) {
  const output = await target.send(session, message, selectedOption ? { selectedOption } : {});
  return output;
}

describe('bilingual-shop example: one tree, a conversation in each language', () => {
  test('in Italian, detected from the first message', async () => {
    const shop = agent();
    const hours = await say(shop, 'it', 'buongiorno, quali sono gli orari del negozio?');
    expect(hours.messages[0]!.content).toBe('Siamo aperti dal lunedì al sabato, dalle 9 alle 19.');
    const shipping = await say(shop, 'it', 'e quanto costa la spedizione?');
    expect(shipping.messages[0]).toMatchObject({
      nodeId: ids.shipping,
      content: 'La spedizione costa 7,90 €, gratis sopra i 100 €. Dove spediamo?',
      options: ['Italia', 'Estero'],
    });
    const person = await say(shop, 'it', 'voglio parlare con una persona');
    expect(person.status).toBe('handed-off');
    expect(person.messages.at(-1)).toMatchObject({
      content: 'Ti passo un collega, ti risponderà a breve.',
      options: ["Torna all'assistente"],
    });
  });

  test('in English, detected from the first message: the same nodes answer in English', async () => {
    const shop = agent();
    const hours = await say(shop, 'en', 'hello, what are your opening hours?');
    expect(hours.messages[0]!.content).toBe('We are open Monday to Saturday, 9 am to 7 pm.');
    const shipping = await say(shop, 'en', 'how much is shipping to France?');
    expect(shipping.messages[0]).toMatchObject({ nodeId: ids.shipping, options: ['Italy', 'Abroad'] });
    const rude = await say(shop, 'en', 'you are an idiot');
    expect(rude.messages[0]).toMatchObject({ content: "Let's keep it polite, please.", isWarning: true });
    const lost = await say(shop, 'en', 'qwerty zxcvb');
    expect(lost.messages[0]!.content).toBe(
      'Sorry, I did not understand. You can ask me about opening hours or shipping.',
    );
  });

  test("in English from the page's locale, whatever the first message looks like", async () => {
    const shop = agent();
    expect(await shop.setSessionLanguage('page', 'en-GB')).toBe('en');
    const output = await say(shop, 'page', 'quanto costa la spedizione?');
    expect(output.messages[0]!.content).toBe('Shipping costs €7.90, free over €100. Where should we ship?');
  });

  test('lint finds no text missing in either language', async () => {
    const warnings = await lintTree(bilingualShopTree());
    expect(warnings.filter((warning) => /language|missing-text/.test(warning.code))).toEqual([]);
  });
});
