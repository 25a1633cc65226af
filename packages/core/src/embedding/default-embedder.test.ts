import { describe, expect, it } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { defineTree } from '../tree/define-tree.js';
import { defaultEmbedderFor } from './default-embedder.js';
import { HashedEmbedder } from './hashed-embedder.js';

const treeOf = (chunks: Record<string, string[]>) =>
  defineTree({
    name: 'shop',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'agent' },
      ...Object.entries(chunks).map(([name, texts], k) => ({
        id: 3 + k,
        type: 'emit' as const,
        parent: 2,
        name,
        chunks: texts,
        emit: { message: { type: 'static' as const, content: name } },
      })),
    ],
  });

const italian = treeOf({
  ordini: ["dov'è il mio ordine?", 'vorrei sapere quando arriva la bici', 'il pacco non è ancora arrivato'],
  resi: ['come faccio un reso?', 'voglio restituire il casco', 'la sella è rotta, posso cambiarla?'],
});
const spanish = treeOf({
  pedidos: ['¿dónde está mi pedido?', '¿cuándo llega mi bicicleta?', '¿dónde está el paquete?'],
  devoluciones: ['¿cómo hago una devolución?', 'quiero devolver el casco'],
});
const english = treeOf({
  orders: ['where is my order?', 'when will the bike arrive', 'my parcel has not arrived'],
  returns: ['how do i return an item?', 'i want to send the helmet back'],
});
const mixed = treeOf({
  orders: ['where is my order?', 'when will the bike arrive'],
  ordini: ["dov'è il mio ordine?", 'vorrei sapere quando arriva la bici'],
});

describe('defaultEmbedderFor', () => {
  it("analyses words in the tree's language when it detects one it can analyse", () => {
    expect(defaultEmbedderFor(italian).language).toBe('it');
    expect(defaultEmbedderFor(spanish).language).toBe('es');
  });

  it('hashes words as written for English trees and trees of several languages', () => {
    expect(defaultEmbedderFor(english).id).toBe(new HashedEmbedder().id);
    expect(defaultEmbedderFor(mixed).id).toBe(new HashedEmbedder().id);
  });

  it('takes the language given over the detected one', () => {
    expect(defaultEmbedderFor(english, 'fr').language).toBe('fr');
    expect(defaultEmbedderFor(italian, 'none').language).toBeUndefined();
    expect(() => defaultEmbedderFor(italian, 'klingon' as 'it')).toThrow(
      /language must be 'auto'.*got "klingon"/,
    );
  });

  it("is the embedder a TreeAgent without one routes with (its space id says the tree's language)", async () => {
    const agent = new TreeAgent({ tree: italian, fit: false });
    expect(agent.space().embedderId).toBe(new HashedEmbedder({ language: 'it' }).id);
    expect(new TreeAgent({ tree: italian, language: 'none', fit: false }).space().embedderId).toBe(
      new HashedEmbedder().id,
    );
    const routed = await agent.route('gli ordini arriveranno?');
    expect(routed.noMatch ? null : routed.node.name).toBe('ordini');
  });
});
