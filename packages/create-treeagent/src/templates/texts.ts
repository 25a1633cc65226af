import type { Language } from '../project-kind.js';

/** Every text of the generated tree, tests and utterances, in each language. */
export interface Texts {
  greeting: { chunks: string[]; answer: string; options: string[] };
  hours: { chunks: string[]; answer: string };
  shipping: { name: string; signposts: string[]; documents: { title: string; text: string }[] };
  returns: { name: string; signposts: string[]; documents: { title: string; text: string }[] };
  contact: { chunks: string[]; askEmail: string; done: string };
  order: { chunks: string[]; askNumber: string; status: string };
  sorry: { answer: string };
  /** A question and an answer fragment of each FAQ, for the conversation test. */
  tests: {
    hello: string;
    hours: string;
    shippingQuestion: string;
    shippingAnswer: string;
    returnsQuestion: string;
    returnsAnswer: string;
    contact: string;
    email: string;
    order: string;
    orderNumber: string;
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
        { title: 'Shipping costs', text: 'Shipping costs 5 € and is free for orders over 50 €.' },
        { title: 'Delivery times', text: 'We deliver in 2 to 4 working days with an express courier.' },
      ],
    },
    returns: {
      name: 'returns',
      signposts: ['return a product', 'refund', 'exchange a size', 'the product is broken'],
      documents: [
        { title: 'Returns', text: 'You can return any product within 30 days of delivery.' },
        { title: 'Refunds', text: 'Refunds reach your payment method within 14 days of the return.' },
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
      status: 'Order {order} left yesterday: it arrives within 2 working days.',
    },
    sorry: { answer: 'Sorry, I did not understand. I can help with opening hours, shipping and contacts.' },
    tests: {
      hello: 'hi!',
      hours: 'when are you open on saturday?',
      shippingQuestion: 'how much does shipping cost?',
      shippingAnswer: '5 €',
      returnsQuestion: 'I want to return a product',
      returnsAnswer: '30 days',
      contact: 'please contact me',
      email: 'my email is ada@example.com',
      order: 'where is my order?',
      orderNumber: 'it is 123456',
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
        { title: 'Costi di spedizione', text: 'La spedizione costa 5 € ed è gratuita sopra i 50 €.' },
        { title: 'Tempi di consegna', text: 'Consegniamo in 2-4 giorni lavorativi con corriere espresso.' },
      ],
    },
    returns: {
      name: 'resi',
      signposts: ['restituire un prodotto', 'rimborso', 'cambiare taglia', 'il prodotto è rotto'],
      documents: [
        { title: 'Resi', text: 'Puoi restituire qualsiasi prodotto entro 30 giorni dalla consegna.' },
        {
          title: 'Rimborsi',
          text: 'Il rimborso arriva sul tuo metodo di pagamento entro 14 giorni dal reso.',
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
      status: "L'ordine {order} è partito ieri: arriva entro 2 giorni lavorativi.",
    },
    sorry: { answer: 'Scusa, non ho capito. Posso aiutarti con orari, spedizioni e contatti.' },
    tests: {
      hello: 'ciao!',
      hours: 'quando siete aperti il sabato?',
      shippingQuestion: 'quanto costa la spedizione?',
      shippingAnswer: '5 €',
      returnsQuestion: 'vorrei restituire un prodotto',
      returnsAnswer: '30 giorni',
      contact: 'per favore contattatemi',
      email: 'la mia email è ada@example.com',
      order: "dov'è il mio ordine?",
      orderNumber: 'è il 123456',
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
