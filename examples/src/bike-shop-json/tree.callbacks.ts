// The callbacks of tree.json, by name: written by `treeagent export --json` from tree.ts.
// The JSON holds the data (chunks, thresholds, messages, flags); this module holds the behaviour.
// Callbacks that were inline functions are still taken from the tree module by node id: move their code here over time.
import { treeCallback } from '@treeagent/core/document';
import source from '../bike-shop/tree.js';

export const node1BeforeRun = treeCallback(source, 1, 'beforeRun');
export const node1AfterRun = treeCallback(source, 1, 'afterRun');
export const assistenteFallback = treeCallback(source, 2, 'fallback');
export const node201Init = treeCallback(source, 201, 'init');
export const spedizioniSearchQuery = treeCallback(source, 202, 'query');
export const spedizioniSearchAfter = treeCallback(source, 202, 'after');
export const spedizioniAnswerEmit = treeCallback(source, 203, 'emit');
export const node301Init = treeCallback(source, 301, 'init');
export const resiSearchQuery = treeCallback(source, 302, 'query');
export const resiSearchAfter = treeCallback(source, 302, 'after');
export const resiAnswerEmit = treeCallback(source, 303, 'emit');
export const ordiniAfter = treeCallback(source, 40, 'after');
export const chiediNumeroOrdineEmit = treeCallback(source, 41, 'emit');
export const chiediNumeroOrdineAfter = treeCallback(source, 41, 'after');
export const statoOrdineEmit = treeCallback(source, 42, 'emit');
export const riparazioneAfter = treeCallback(source, 502, 'after');
export const riparazioneAskEmit = treeCallback(source, 503, 'emit');
export const riparazioneAskAfter = treeCallback(source, 503, 'after');
export const riparazioneConfirmEmit = treeCallback(source, 504, 'emit');
export const riparazioneConfirmAfter = treeCallback(source, 504, 'after');
export const riparazioneDoneEmit = treeCallback(source, 505, 'emit');
export const riparazioneCancelledEmit = treeCallback(source, 506, 'emit');
export const riparazioneResumeAfter = treeCallback(source, 507, 'after');
export const nonHoCapitoBefore = treeCallback(source, 90, 'before');
export const passaggioAOperatoreBefore = treeCallback(source, 70, 'before');
export const passaggioAOperatoreAfter = treeCallback(source, 70, 'after');
export const ritornoAllAssistenteAfter = treeCallback(source, 71, 'after');
