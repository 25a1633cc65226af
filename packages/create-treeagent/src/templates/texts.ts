import type { Language } from '../project-kind.js';

/** A FAQ: the signposts route messages to it; each document lists how customers ask for it. */
export interface Faq {
  name: string;
  signposts: string[];
  documents: { title: string; text: string; questions: string[] }[];
}

/** Every text of the generated tree, tests and utterances, in each language. */
export interface Texts {
  greeting: { chunks: string[]; answer: string; options: string[] };
  hours: { chunks: string[]; answer: string };
  shipping: Faq;
  returns: Faq;
  contact: { chunks: string[]; askEmail: string; done: string };
  /** `askAgain`: an answer with digits but no order number in it (a typo, a letter too many). */
  order: { chunks: string[]; askNumber: string; askAgain: string; status: string };
  /** The fallback's answer: what the minimal template can help with, and the support one. */
  sorry: { answer: string; support: string };
  /** A question and an answer fragment of each FAQ, for the conversation test. */
  tests: {
    hello: string;
    hours: string;
    shippingQuestion: string;
    shippingAnswer: string;
    returnsQuestion: string;
    returnsAnswer: string;
    /** Asked in the customer's words: each must find its own document, not only the FAQ. */
    faqQuestions: { say: string; node: 'shipping' | 'returns'; answer: string }[];
    contact: string;
    email: string;
    order: string;
    orderNumber: string;
    /** An answer with digits that are no order number: asked again, not dropped. */
    notAnOrderNumber: string;
    offTopic: string;
  };
  utterances: [string, string][];
}

export const TEXTS: Record<Language, Texts> = {
  en: {
    greeting: {
      chunks: ['hello', 'hi there', 'good morning', 'hi, I need some help'],
      answer: 'Hello! I am the assistant of this shop. How can I help?',
      options: ['Opening hours', 'Shipping', 'Contact me'],
    },
    hours: {
      chunks: ['opening hours', 'when are you open?', 'what time do you close?', 'are you open on sunday?'],
      answer: 'We are open Monday to Saturday, 9:00 to 19:00.',
    },
    shipping: {
      name: 'shipping',
      signposts: ['shipping', 'how much is shipping', 'delivery times', 'do you ship abroad?'],
      documents: [
        {
          title: 'Shipping costs',
          text: 'Shipping costs 5 € and is free for orders over 50 €.',
          questions: ['how much is shipping', 'is shipping free?'],
        },
        {
          title: 'Delivery times',
          text: 'We deliver in 2 to 4 working days with an express courier.',
          questions: ['delivery times', 'how long does delivery take?'],
        },
        {
          title: 'Shipping abroad',
          text: 'We ship to every country of the European Union: shipping abroad costs 12 €.',
          questions: ['do you ship abroad?', 'can you deliver to another country?'],
        },
      ],
    },
    returns: {
      name: 'returns',
      signposts: [
        'return a product',
        'refund',
        'exchange a size',
        'the product is broken',
        'it arrived broken',
      ],
      documents: [
        {
          title: 'Returns',
          text: 'You can return any product within 30 days of delivery.',
          questions: ['return a product', 'I want to send it back'],
        },
        {
          title: 'Refunds',
          text: 'Refunds reach your payment method within 14 days of the return.',
          questions: ['refund', 'when do I get my money back?'],
        },
        {
          title: 'Size exchange',
          text: 'Need another size? Exchange it for free within 30 days: we send the new one when yours is back.',
          questions: ['exchange a size', 'it does not fit', 'I need a bigger size'],
        },
        {
          title: 'Damaged products',
          text: 'A product arrived damaged? Send us a photo within 7 days and we replace it for free.',
          questions: ['the product is broken', 'it arrived broken'],
        },
      ],
    },
    contact: {
      chunks: ['contact me', 'I want to be contacted', 'can someone write to me?', 'talk to a person'],
      askEmail: 'Sure: what is your email address?',
      done: 'Thank you! We will write to {email} within one working day.',
    },
    order: {
      chunks: ['where is my order?', 'order status', 'track my parcel', 'my order has not arrived'],
      askNumber: 'What is your order number? It is in the confirmation email.',
      askAgain:
        'I could not read an order number there: it is 5 or more digits, as in the confirmation email.',
      status: 'Order {order} left yesterday: it arrives within 2 working days.',
    },
    sorry: {
      answer: 'Sorry, I did not understand. I can help with opening hours, shipping and contacts.',
      support:
        'Sorry, I did not understand. I can help with opening hours, shipping, returns, your order and contacts.',
    },
    tests: {
      hello: 'hi!',
      hours: 'when are you open on saturday?',
      shippingQuestion: 'how much does shipping cost?',
      shippingAnswer: '5 €',
      returnsQuestion: 'I want to return a product',
      returnsAnswer: '30 days',
      faqQuestions: [
        { say: 'do you ship abroad?', node: 'shipping', answer: '12 €' },
        { say: 'I need to exchange a size', node: 'returns', answer: 'another size' },
        { say: 'when do I get my money back?', node: 'returns', answer: '14 days' },
        { say: 'my order arrived broken', node: 'returns', answer: 'photo' },
      ],
      contact: 'please contact me',
      email: 'my email is ada@example.com',
      order: 'where is my order?',
      orderNumber: 'it is 123456',
      notAnOrderNumber: 'it is A1234',
      offTopic: 'penguins love cold weather',
    },
    utterances: [
      ['good morning to you', 'greeting'],
      ['what are your opening hours?', 'hours'],
      ['is shipping free?', 'shipping: search'],
      ['can someone contact me?', 'contact'],
      ['penguins love cold weather', 'none'],
    ],
  },
  it: {
    greeting: {
      chunks: ['ciao', 'buongiorno', 'salve', 'ciao, ho bisogno di aiuto'],
      answer: "Ciao! Sono l'assistente del negozio. Come posso aiutarti?",
      options: ['Orari', 'Spedizioni', 'Contattatemi'],
    },
    hours: {
      chunks: [
        'orari di apertura',
        'quando siete aperti?',
        'a che ora chiudete?',
        'siete aperti la domenica?',
      ],
      answer: 'Siamo aperti dal lunedì al sabato, dalle 9 alle 19.',
    },
    shipping: {
      name: 'spedizioni',
      signposts: ['spedizione', 'quanto costa la spedizione', 'tempi di consegna', "spedite all'estero?"],
      documents: [
        {
          title: 'Costi di spedizione',
          text: 'La spedizione costa 5 € ed è gratuita sopra i 50 €.',
          questions: ['spedizione', 'quanto costa la spedizione', 'la spedizione è gratuita?'],
        },
        {
          title: 'Tempi di consegna',
          text: 'Consegniamo in 2-4 giorni lavorativi con corriere espresso.',
          questions: ['tempi di consegna', 'quanto ci mette ad arrivare?'],
        },
        {
          title: "Spedizioni all'estero",
          text: "Spediamo in tutti i paesi dell'Unione europea: la spedizione all'estero costa 12 €.",
          questions: ["spedite all'estero?", 'potete consegnare in un altro paese?'],
        },
      ],
    },
    returns: {
      name: 'resi',
      signposts: [
        'restituire un prodotto',
        'rimborso',
        'cambiare taglia',
        'il prodotto è rotto',
        'è arrivato rotto',
      ],
      documents: [
        {
          title: 'Resi',
          text: 'Puoi restituire qualsiasi prodotto entro 30 giorni dalla consegna.',
          questions: ['restituire un prodotto', 'fare un reso'],
        },
        {
          title: 'Rimborsi',
          text: 'Il rimborso arriva sul tuo metodo di pagamento entro 14 giorni dal reso.',
          questions: ['rimborso', 'quando mi ridate i soldi?'],
        },
        {
          title: 'Cambio taglia',
          text: "Ti serve un'altra taglia? Il cambio è gratuito entro 30 giorni: spediamo la nuova quando ci arriva la tua.",
          questions: ['cambiare taglia', 'non mi sta bene', 'mi serve una taglia più grande'],
        },
        {
          title: 'Prodotti danneggiati',
          text: 'Un prodotto è arrivato danneggiato? Mandaci una foto entro 7 giorni e lo sostituiamo gratis.',
          questions: ['il prodotto è rotto', 'è arrivato rotto'],
        },
      ],
    },
    contact: {
      chunks: [
        'contattatemi',
        'voglio essere ricontattato',
        'qualcuno può scrivermi?',
        'parlare con una persona',
      ],
      askEmail: 'Certo: qual è il tuo indirizzo email?',
      done: 'Grazie! Ti scriveremo a {email} entro un giorno lavorativo.',
    },
    order: {
      chunks: [
        "dov'è il mio ordine?",
        'stato del mio ordine',
        'tracciare il pacco',
        'il mio ordine non è arrivato',
      ],
      askNumber: "Qual è il numero d'ordine? Lo trovi nella mail di conferma.",
      askAgain: "Non riesco a leggere un numero d'ordine: sono 5 o più cifre, come nella mail di conferma.",
      status: "L'ordine {order} è partito ieri: arriva entro 2 giorni lavorativi.",
    },
    sorry: {
      answer: 'Scusa, non ho capito. Posso aiutarti con orari, spedizioni e contatti.',
      support: 'Scusa, non ho capito. Posso aiutarti con orari, spedizioni, resi, il tuo ordine e contatti.',
    },
    tests: {
      hello: 'ciao!',
      hours: 'quando siete aperti il sabato?',
      shippingQuestion: 'quanto costa la spedizione?',
      shippingAnswer: '5 €',
      returnsQuestion: 'vorrei restituire un prodotto',
      returnsAnswer: '30 giorni',
      faqQuestions: [
        { say: "spedite anche all'estero?", node: 'shipping', answer: '12 €' },
        { say: 'devo cambiare la taglia', node: 'returns', answer: "un'altra taglia" },
        { say: 'quando mi ridate i soldi?', node: 'returns', answer: '14 giorni' },
        { say: 'la merce è arrivata rotta', node: 'returns', answer: 'foto' },
      ],
      contact: 'per favore contattatemi',
      email: 'la mia email è ada@example.com',
      order: "dov'è il mio ordine?",
      orderNumber: 'è il 123456',
      notAnOrderNumber: "è l'A1234",
      offTopic: 'vendete elicotteri?',
    },
    utterances: [
      ['buongiorno a tutti', 'greeting'],
      ['che orari di apertura avete?', 'hours'],
      ['la spedizione è gratuita?', 'spedizioni: search'],
      ['qualcuno può contattarmi?', 'contact'],
      ['vendete elicotteri?', 'none'],
    ],
  },
};
