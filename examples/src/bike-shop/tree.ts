import { formFallback } from '@treeagent/components';
import { defineTree, type Tree } from '@treeagent/core';
import { knowledge } from './knowledge.js';
import { orderStatusTool } from './orders.js';
import { repairBooking } from './repair-booking.js';

/** Node ids used by the conversation test and by callbacks through `links`. */
export const ids = {
  root: 1,
  assistant: 2,
  operator: 3,
  greeting: 10,
  information: 15,
  shipping: 20,
  returns: 30,
  orders: 40,
  askOrderNumber: 41,
  orderStatus: 42,
  repairBooking: 50,
  guardrail: 60,
  handoff: 70,
  backToAssistant: 71,
  didNotUnderstand: 90,
} as const;

const shipping = (generative: boolean) =>
  knowledge({
    generative,
    name: 'spedizioni',
    signposts: [
      'spedizione',
      'costo della spedizione',
      'spedire in Europa',
      'tempo per spedire',
      'spese di spedizione',
      'spedizione gratuita',
      'tempi di consegna',
      'quando arriva il pacco',
      'quanti giorni per la consegna',
      'corriere espresso',
      "spedite all'estero?",
      'spedizioni in Europa',
      'consegna a domicilio',
    ],
    documents: [
      {
        title: 'Costi di spedizione',
        text: 'In Italia la spedizione costa 7,90 € ed è gratuita per ordini sopra i 99 €.',
        url: 'https://ciclofficina-rossi.example/spedizioni#costi',
      },
      {
        title: 'Tempi di consegna',
        text: 'Consegniamo in 2-4 giorni lavorativi in Italia con corriere espresso.',
      },
      {
        title: "Spedizioni all'estero",
        text: "Spediamo all'estero in tutta l'Unione Europea (Germania, Francia, Spagna, Austria, Belgio, Paesi Bassi e gli altri paesi UE) in 5-7 giorni lavorativi: spedire costa 19 €.",
      },
    ],
  });

const returns = (generative: boolean) =>
  knowledge({
    generative,
    name: 'resi',
    signposts: [
      'reso',
      'fare un reso',
      'restituire un prodotto',
      'restituire la bici',
      'rendere un articolo',
      'rimborso',
      'quando arriva il rimborso',
      'cambio taglia',
      'taglia sbagliata',
      'prodotto difettoso',
      'è arrivato rotto',
      'diritto di recesso',
      'voglio i soldi indietro',
    ],
    documents: [
      {
        title: 'Diritto di recesso',
        text: 'Puoi restituire qualsiasi prodotto entro 30 giorni dalla consegna, senza spiegazioni.',
        questions: [
          'fare un reso',
          'restituire la bici',
          'rendere un articolo',
          'diritto di recesso',
          'entro quanto posso restituirlo?',
        ],
      },
      {
        title: 'Rimborsi',
        text: 'Il rimborso arriva sullo stesso metodo di pagamento entro 14 giorni dal ricevimento del reso.',
        questions: ['rimborso', 'quando arriva il rimborso', 'voglio i soldi indietro'],
      },
      {
        title: 'Prodotti difettosi',
        text: "Se il prodotto è difettoso il reso è gratuito: scrivici una foto del difetto e ti mandiamo l'etichetta.",
        questions: ['prodotto difettoso', 'è arrivato rotto'],
      },
      {
        title: 'Cambio taglia',
        text: 'Per cambiare taglia fai un reso gratuito entro 30 giorni e ordina la taglia giusta: la spediamo subito.',
        questions: ['cambio taglia', 'taglia sbagliata'],
      },
    ],
  });

const ORDER_NUMBER = /\b\d{5,}\b/;

/**
 * The example tree of a bike shop's customer-service assistant ("Ciclofficina Rossi"):
 * - two agents: the assistant (primary) and a human operator hand-off, chosen by `beforeRun`;
 * - the *knowledge* component used twice (shipping and returns), each instance with its own `self`,
 *   under an anchor ("informazioni", a switch) that keeps follow-up questions in the knowledge bases;
 * - a blocking node ("ordini") where exploration always stops, so that its `after` decides whether
 *   to ask for the order number (a form kept in the session state) or to show the order's status
 *   (generative: written by the model from the `orderStatus` tool's answer);
 * - the repair booking ("prenotazione riparazione"), a form of `@treeagent/components`: a question on
 *   another topic in the middle is answered by exploration, and the agent's fallback (wrapped by
 *   `formFallback`) brings the next reply nothing else takes back to the form;
 * - a guardrail, and a fallback that apologises.
 */
export interface BikeShopOptions {
  /**
   * With a language model: knowledge answers are generated from the retrieved documents (after an llm
   * node checks they answer the question) and messages are rewritten with the conversation's context.
   */
  generative?: boolean;
  /** Clock of the repair booking's relative dates ("domani"); fixed by the tests. */
  now?: () => Date;
}

export function bikeShopTree(options: BikeShopOptions = {}): Tree {
  const generative = options.generative ?? false;
  return defineTree({
    name: generative ? 'bike-shop-generative' : 'bike-shop',
    nodes: [
      {
        id: ids.root,
        type: 'root',
        smartExtendedMessage: generative,
        conversationGoal:
          'Assistenza clienti di Ciclofficina Rossi, un negozio online di biciclette: spedizioni, resi, stato degli ordini.',
        topics: ['spedizioni', 'resi e rimborsi', 'stato degli ordini', 'biciclette'],
        links: { operator: ids.operator, handoff: ids.handoff, assistant: ids.assistant },
        beforeRun: (_self, context, _special, links) => {
          // Hand the user to a human operator when asked, or after two messages not understood in a row
          // (while people have the session the tree does not run: docs/concepts.md §11).
          const asked = /\b(operatore|persona|umano)\b/i.test(context.input.original);
          if (asked || (context.sessionState.get<number>('notUnderstood') ?? 0) >= 2) {
            return { nodeTarget: links.handoff, step: 'before' };
          }
          return undefined;
        },
        afterRun: (_self, context, special) => {
          const last = special.output.messages.at(-1);
          if (last && last.nodeId !== ids.didNotUnderstand) context.sessionState.delete('notUnderstood');
          context.metadata.serverMetadata.sessionState = context.sessionState.serialize();
        },
      },
      {
        id: ids.assistant,
        type: 'agent',
        parent: ids.root,
        isPrimary: true,
        name: 'assistente',
        links: { sorry: ids.didNotUnderstand },
        // A message nothing fits goes back to a form in progress (the repair booking), else apologise.
        fallback: formFallback((_self, _context, _special, links) => ({ nodeTarget: links.sorry })),
      },
      {
        id: ids.greeting,
        type: 'emit',
        parent: ids.assistant,
        name: 'saluto',
        chunks: [
          'ciao',
          'buongiorno',
          'salve',
          'ciao, ho bisogno di aiuto',
          'buonasera',
          'ehi ciao',
          'buongiorno, mi potete aiutare?',
        ],
        emit: {
          message: {
            type: 'static',
            content: "Ciao! Sono l'assistente di Ciclofficina Rossi. Come posso aiutarti?",
          },
          options: ['Spedizioni', 'Resi e rimborsi', "Dov'è il mio ordine?"],
        },
      },
      {
        // A transparent anchor: after an answer from a knowledge base the next message is first
        // matched against the knowledge bases; when nothing there fits, the switch climbs on to the agent.
        id: ids.information,
        type: 'switch',
        parent: ids.assistant,
        name: 'informazioni',
        isAnchor: true,
      },
      {
        id: ids.shipping,
        type: 'component',
        parent: ids.information,
        use: shipping(generative),
        idBase: 200,
      },
      { id: ids.returns, type: 'component', parent: ids.information, use: returns(generative), idBase: 300 },
      {
        id: ids.orders,
        type: 'empty',
        parent: ids.assistant,
        name: 'ordini',
        isBlocking: true,
        chunks: [
          "dov'è il mio ordine",
          'stato del mio ordine',
          'tracciare il pacco',
          'tracking della spedizione',
          'il mio ordine non è arrivato',
          'ordine in ritardo',
          "numero d'ordine",
          'ho fatto un ordine',
          'ho ordinato ma non è arrivato niente',
          'tracciare il mio ordine',
        ],
        links: { ask: ids.askOrderNumber, status: ids.orderStatus },
        after: (_self, context, _special, links) => {
          const known = context.sessionState.get<string>('orderNumber');
          return { nodeTarget: known ? links.status : links.ask, step: 'before' };
        },
      },
      {
        id: ids.askOrderNumber,
        type: 'emit',
        parent: ids.orders,
        name: 'chiedi numero ordine',
        links: { status: ids.orderStatus },
        emit: (_self, context) => ({
          message: {
            type: 'static',
            content: context.sessionState.get('orderNumberAttempts')
              ? "Non trovo un numero d'ordine nel messaggio: è il numero di almeno 5 cifre nella mail di conferma."
              : "Mi dici il numero d'ordine? Lo trovi nella mail di conferma.",
          },
          waitInteraction: true,
        }),
        after: (_self, context, _special, links) => {
          const match = ORDER_NUMBER.exec(context.input.original);
          const attempts = (context.sessionState.get<number>('orderNumberAttempts') ?? 0) + 1;
          if (!match) {
            // Three messages without a number: give up the form; reach_anchor explores the message instead.
            if (attempts >= 3) {
              context.sessionState.delete('orderNumberAttempts');
              return { outcome: 'failure' };
            }
            context.sessionState.set('orderNumberAttempts', attempts);
            return { nodeTarget: context.node.id, step: 'before' };
          }
          context.sessionState.delete('orderNumberAttempts');
          context.sessionState.set('orderNumber', match[0]);
          return { nodeTarget: links.status, step: 'before' };
        },
      },
      generative
        ? {
            // With a model, the answer is written from the order system: the model calls the
            // orderStatus tool, gets the order's record and streams its answer from it.
            id: ids.orderStatus,
            type: 'emit',
            parent: ids.orders,
            name: 'stato ordine',
            tools: { orderStatus: orderStatusTool },
            maxToolSteps: 2,
            prompt: (_self, context) => ({
              systemPrompt:
                "Sei l'assistente di Ciclofficina Rossi. Rispondi in italiano, in una o due frasi. Per lo stato di un ordine chiama sempre lo strumento orderStatus e rispondi solo con quello che restituisce: non inventare date né corrieri. Se l'ordine non esiste, chiedi di controllare il numero.",
              prompt: `Il cliente chiede dell'ordine numero ${context.sessionState.get('orderNumber')}. Il suo messaggio: "${context.input.original}"`,
            }),
            emit: { message: { type: 'generated' } },
          }
        : {
            id: ids.orderStatus,
            type: 'emit',
            parent: ids.orders,
            name: 'stato ordine',
            emit: (_self, context) => ({
              message: {
                type: 'static',
                content: `L'ordine ${context.sessionState.get('orderNumber')} è partito ieri: arriverà entro 2 giorni lavorativi.`,
              },
            }),
          },
      {
        id: ids.repairBooking,
        type: 'component',
        parent: ids.assistant,
        use: repairBooking({ generative, ...(options.now ? { now: options.now } : {}) }),
        idBase: 500,
      },
      {
        id: ids.guardrail,
        type: 'guardrail',
        parent: ids.assistant,
        name: 'linguaggio offensivo',
        chunks: [
          'sei un idiota',
          'siete dei ladri',
          'vaffanculo',
          'stupido bot',
          'siete degli incompetenti',
          'che schifo di servizio',
          'sei inutile',
        ],
        similarityThreshold: 0.3,
        warning:
          'Capisco la frustrazione, ma ti chiedo di mantenere un linguaggio rispettoso. Come posso aiutarti?',
      },
      {
        id: ids.didNotUnderstand,
        type: 'emit',
        parent: ids.assistant,
        name: 'non ho capito',
        before: (_self, context) => {
          context.sessionState.set(
            'notUnderstood',
            (context.sessionState.get<number>('notUnderstood') ?? 0) + 1,
          );
        },
        emit: {
          message: {
            type: 'static',
            content: 'Scusa, non ho capito. Posso aiutarti con spedizioni, resi e stato degli ordini.',
          },
          options: ['Spedizioni', 'Resi e rimborsi', "Dov'è il mio ordine?"],
        },
      },
      { id: ids.operator, type: 'agent', parent: ids.root, name: 'operatore' },
      {
        id: ids.handoff,
        type: 'emit',
        parent: ids.operator,
        name: 'passaggio a operatore',
        isBlocking: true,
        links: { assistant: ids.assistant, back: ids.backToAssistant },
        before: (_self, context) => {
          // A real handoff: the session goes to the "assistenza" queue of the operator console.
          const asked = /\b(operatore|persona|umano)\b/i.test(context.input.original);
          const order = context.sessionState.get<string>('orderNumber');
          context.sessionState.delete('notUnderstood');
          context.handoff({
            reason: asked ? 'Ha chiesto di parlare con un operatore' : 'Due messaggi di fila non capiti',
            queue: 'assistenza',
            summary: `${order ? `Ordine ${order}. ` : ''}Ultimo messaggio: "${context.input.original}"`,
            returnOption: "Torna all'assistente",
          });
        },
        emit: {
          message: {
            type: 'static',
            content:
              'Ti passo a un collega in carne e ossa: ti risponderà qui. Scrivi "torna all\'assistente" quando vuoi.',
          },
          options: ["Torna all'assistente"],
        },
        // The user came back (the return option) or an operator handed back at this node.
        after: (_self, _context, _special, links) => ({ nodeTarget: links.back, step: 'before' }),
      },
      {
        id: ids.backToAssistant,
        type: 'emit',
        parent: ids.operator,
        name: "ritorno all'assistente",
        isMute: true,
        links: { assistant: ids.assistant },
        emit: { message: { type: 'static', content: 'Ok, riprendiamo da dove eravamo.' } },
        after: (_self, _context, _special, links) => ({ nodeTarget: links.assistant, resume: true }),
      },
    ],
  });
}

/** For `treeagent dev|chat|eval`: the generative variant when a language model is configured. */
export default function (context: { models?: Record<string, unknown> } = {}): Tree {
  return bikeShopTree({ generative: Boolean(context.models?.default) });
}
