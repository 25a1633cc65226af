import { defineTree, type Tree } from '@treeagent/core';

const OPENINGS = [
  'can you tell me',
  'i want to know',
  'please show me',
  'what is',
  'i need to check',
  'could you find',
  'help me see',
  'do you know',
];

/** Four English intents, each phrased with every opening: 4 × 8 × 4 = 128 exploration chunks. */
const INTENTS: Record<string, readonly string[]> = {
  balance: [
    'my account balance',
    'how much money i have',
    'the balance of my savings',
    'what my checking account holds',
  ],
  transfer: [
    'how to send money to a friend',
    'the way to move funds to another account',
    'how i pay someone from my account',
    'the steps to wire money abroad',
  ],
  weather: [
    'the weather for tomorrow',
    'if it will rain today',
    'the forecast for the weekend',
    'how cold it is outside',
  ],
  recipe: [
    'a recipe for pancakes',
    'how to cook pasta',
    'what i can bake with apples',
    'the ingredients for a curry',
  ],
};

/** Italian signposts of the same shape: not an English tree. */
const ITALIAN: Record<string, readonly string[]> = {
  saldo: [
    'il saldo del mio conto',
    'quanti soldi ho sul conto',
    'il saldo dei miei risparmi',
    'cosa c’è sul mio conto corrente',
  ],
  bonifico: [
    'come mandare soldi a un amico',
    'come spostare fondi su un altro conto',
    'come pago qualcuno dal mio conto',
    'come fare un bonifico all’estero',
  ],
  meteo: [
    'il meteo di domani',
    'se oggi pioverà',
    'le previsioni per il fine settimana',
    'quanto fa freddo fuori',
  ],
  ricetta: [
    'una ricetta per le frittelle',
    'come cuocere la pasta',
    'cosa posso cucinare con le mele',
    'gli ingredienti per un curry',
  ],
};
const APERTURE = [
  'mi dici',
  'vorrei sapere',
  'per favore mostrami',
  'qual è',
  'devo controllare',
  'puoi trovare',
  'aiutami a vedere',
  'sai dirmi',
];

function treeOf(name: string, intents: Record<string, readonly string[]>, openings: readonly string[]): Tree {
  return defineTree({
    name,
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'agent' },
      ...Object.entries(intents).map(([intent, objects], index) => ({
        id: 10 + index,
        type: 'emit' as const,
        parent: 2,
        name: intent,
        chunks: openings.flatMap((opening) => objects.map((object) => `${opening} ${object}`)),
        emit: { message: { type: 'static' as const, content: intent } },
      })),
    ],
  });
}

/** A small English tree with enough chunks for the automatic fit (128, four nodes). */
export function englishIntentTree(): Tree {
  return treeOf('english', INTENTS, OPENINGS);
}

/** The same tree in Italian (128 chunks). */
export function italianIntentTree(): Tree {
  return treeOf('italiano', ITALIAN, APERTURE);
}
