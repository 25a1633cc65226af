import type { TFunction } from 'i18next';
import { i18n } from './i18n';

/** A namespace of the catalogs (`packages/server/locales/<language>/<namespace>.json`). */
export type Namespace =
  | 'common'
  | 'chat'
  | 'console'
  | 'analytics'
  | 'review'
  | 'audit'
  | 'tree'
  | 'sources'
  | 'editor'
  | 'debug'
  | 'server'
  | 'callbacks';

/**
 * The translation function of a namespace in the page's language: `t('key')`, `t('key', { name })`.
 * The language is chosen once, before the app renders; components call this in their body.
 *
 * @example
 * const t = useT('chat');
 * return <button>{t('newConversation')}</button>;
 */
export function useT(namespace: Namespace = 'common'): TFunction {
  return i18n.getFixedT(null, namespace);
}

/** The same outside components (models, hooks' messages). */
export const tOf = useT;
