import { useApp } from '../app/app-context';
import { Icon } from '../components/icon';
import { ApiKeyButton } from './developer-bar';
import './customer.css';
import { useT } from '../i18n/use-t';

/**
 * The customer's header over the chat (`treeagent serve`): the assistant's name and "New
 * conversation"; no staff links, session id or debug.
 */
export function CustomerHeader({ onNewChat }: { onNewChat(): void }) {
  const { assistantName } = useApp();
  const t = useT('chat');
  return (
    <header class="topbar topbar--customer">
      <div class="brand">
        <Icon name="agent" class="brand-logo" />
        <span id="assistant-name" class="brand-name">
          {assistantName ?? t('assistant')}
        </span>
      </div>
      <div class="topbar-actions">
        <ApiKeyButton />
        <button id="new-chat" type="button" class="ghost-button" onClick={onNewChat}>
          <Icon name="plus" />
          <span>{t('newConversation')}</span>
        </button>
      </div>
    </header>
  );
}
