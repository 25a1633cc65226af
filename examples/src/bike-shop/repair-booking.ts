import { form } from '@treeagent/components';
import type { ComponentDefinition } from '@treeagent/core';

/** Options of the repair booking. */
export interface RepairBookingOptions {
  /** With a language model: an LLM reads what the parsers could not (e.g. "la sera della vigilia"). */
  generative?: boolean;
  /** Clock of relative dates ("domani", "giovedì prossimo"); fixed in tests. */
  now?: () => Date;
}

const BIKE_TYPES = {
  'bici da corsa': ['corsa', 'da corsa', 'road bike', 'bici da strada'],
  'mountain bike': ['mtb', 'mountain bike', 'bici da montagna'],
  'city bike': ['city bike', 'bici da città', 'olandese', 'bici da passeggio'],
  'bici elettrica': ['e-bike', 'ebike', 'elettrica', 'pedalata assistita'],
  gravel: ['gravel'],
  'bici da bambino': ['bici da bambino', 'bici per bambini', 'bici del bimbo'],
};

/**
 * "Prenotazione riparazione": the workshop appointment, a form of `@treeagent/components` with five
 * slots (bike type, problem, date, time, phone). The workshop is open Monday to Saturday, 9:00–18:30,
 * and the summary is confirmed before booking.
 */
export function repairBooking(options: RepairBookingOptions = {}): ComponentDefinition {
  return form({
    name: 'riparazione',
    triggers: [
      'prenotare una riparazione',
      'vorrei far riparare la bici',
      'è rotta, potete ripararla?',
      'appuntamento in officina',
      'portarla in officina',
      'prenotazione riparazione',
      'manutenzione e tagliando',
      'revisione completa',
      'riparare una foratura',
      'il cambio non funziona',
    ],
    intro: 'Certo, prenotiamo la riparazione in officina.',
    slots: [
      {
        name: 'bike',
        type: 'enum',
        label: 'Bici',
        question: 'Che bici è? (corsa, mountain bike, city bike, elettrica, gravel, da bambino)',
        options: BIKE_TYPES,
      },
      {
        name: 'problem',
        type: 'text',
        label: 'Problema',
        question: 'Qual è il problema?',
        description: 'the fault of the bike, in the user words',
        // Read from a message that gives everything at once: the clause with one of these words.
        keywords: [
          'non va',
          'non funziona',
          'non frena',
          'salta',
          'bucata',
          'bucato',
          'foratura',
          'rotto',
          'rotta',
          'rotti',
          'cigola',
          'freni',
          'freno',
          'cambio',
          'catena',
          'gomma',
          'raggi',
          'problema',
        ],
      },
      {
        name: 'date',
        type: 'date',
        label: 'Giorno',
        question: 'Per che giorno vuoi portarla?',
        dates: 'future',
        validate: (value) =>
          new Date(`${String(value)}T12:00:00Z`).getUTCDay() === 0
            ? "La domenica l'officina è chiusa."
            : true,
      },
      {
        name: 'time',
        type: 'time',
        label: 'Ora',
        question: 'A che ora?',
        min: '09:00',
        max: '18:30',
        reask: "L'officina è aperta dalle 9 alle 18:30: a che ora preferisci?",
      },
      {
        name: 'phone',
        type: 'phone',
        label: 'Telefono',
        question: 'A che numero ti possiamo chiamare?',
        reask: 'Il numero non sembra valido: mi scrivi il cellulare, per esempio +39 333 1234567?',
      },
    ],
    llm: Boolean(options.generative),
    ...(options.now ? { now: options.now } : {}),
    onComplete: (values, context) => {
      context.sessionState.set('repairBooking', values);
      const [year, month, day] = String(values.date).split('-');
      return `Prenotato! Ti aspettiamo il ${day}/${month}/${year} alle ${values.time} con la tua ${values.bike}. Se serve ti chiamiamo al ${values.phone}.`;
    },
  });
}
