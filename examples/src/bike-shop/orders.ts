import { defineTool } from '@treeagent/core';

/** An order as the shop's order system reports it. */
export interface OrderRecord {
  orderNumber: string;
  status: 'in preparazione' | 'spedito' | 'consegnato';
  carrier: string | null;
  /** Expected delivery, ISO date; `null` once delivered or before shipping. */
  expectedDelivery: string | null;
  /** Last known place of the parcel. */
  lastUpdate: string;
}

/**
 * The demo's order system: a fixed table standing in for the shop's database (a real tree would
 * call its API here, passing the tool's `signal` to `fetch`). Every other number is not found.
 */
export const DEMO_ORDERS: Readonly<Record<string, OrderRecord>> = {
  '12345': {
    orderNumber: '12345',
    status: 'spedito',
    carrier: 'BRT',
    expectedDelivery: '2026-12-03',
    lastUpdate: 'in transito da Verona',
  },
  '67890': {
    orderNumber: '67890',
    status: 'in preparazione',
    carrier: null,
    expectedDelivery: null,
    lastUpdate: 'in magazzino, parte entro domani',
  },
  '24680': {
    orderNumber: '24680',
    status: 'consegnato',
    carrier: 'GLS',
    expectedDelivery: null,
    lastUpdate: 'consegnato il 28 novembre',
  },
};

/**
 * The tool the generative order-status answer calls (docs/models.md, *Tools*): the model asks for
 * the order it is told about, and writes its answer from what comes back.
 */
export const orderStatusTool = defineTool({
  description:
    "Lo stato di un ordine di Ciclofficina Rossi dal suo numero: stato, corriere, consegna prevista, ultimo aggiornamento. Restituisce { found: false } se l'ordine non esiste.",
  parameters: {
    type: 'object',
    properties: {
      orderNumber: { type: 'string', pattern: '^\\d{5,}$', description: "il numero d'ordine, solo cifre" },
    },
    required: ['orderNumber'],
    additionalProperties: false,
  },
  timeoutMs: 5_000,
  execute: async (_self, _context, { input, signal }) => {
    signal.throwIfAborted();
    const order = DEMO_ORDERS[input.orderNumber as string];
    return order ? { found: true, ...order } : { found: false, orderNumber: input.orderNumber };
  },
});
