import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { Icon } from '../components/icon';
import { useT } from '../i18n/use-t';

/** The developer's bar over the chat (`treeagent dev`): the pages, the session, "Save as test", the inspector's tabs. */
export function DeveloperBar(props: {
  sessionId: string | null;
  canSave: boolean;
  inspectorTab: 'debug' | 'tree' | null;
  onNewChat(): void;
  onSave(): void;
  onToggle(tab: 'debug' | 'tree'): void;
}) {
  const app = useApp();
  const t = useT('chat');
  const { sessionId } = props;
  return (
    <TopBar>
      <span
        id="session-label"
        class="session-label"
        title={sessionId ? t('developer.sessionTitle', { id: sessionId }) : ''}
      >
        {sessionId ? t('developer.session', { id: sessionId.slice(0, 8) }) : ''}
      </span>
      <ApiKeyButton />
      <button
        id="new-chat"
        type="button"
        class="ghost-button"
        title={t('developer.newSessionTitle')}
        onClick={props.onNewChat}
      >
        <Icon name="plus" />
        <span>{t('newChat')}</span>
      </button>
      <button
        id="save-test"
        type="button"
        class="ghost-button"
        title={t('developer.saveTestTitle')}
        disabled={!props.canSave}
        onClick={props.onSave}
      >
        <Icon name="file" />
        <span>{t('developer.saveTest')}</span>
      </button>
      {app.debug ? (
        <button
          id="toggle-debug"
          type="button"
          class="ghost-button"
          title={t('developer.debugTitle')}
          aria-controls="side"
          aria-pressed={props.inspectorTab === 'debug' ? 'true' : 'false'}
          onClick={() => props.onToggle('debug')}
        >
          <Icon name="bug" />
          <span>{t('debug')}</span>
        </button>
      ) : null}
      <button
        id="toggle-tree"
        type="button"
        class="ghost-button"
        title={t('developer.treeTitle')}
        aria-controls="side"
        aria-pressed={props.inspectorTab === 'tree' ? 'true' : 'false'}
        onClick={() => props.onToggle('tree')}
      >
        <Icon name="route" />
        <span>{t('developer.tree')}</span>
      </button>
    </TopBar>
  );
}

/** "API key", once the server asked for one: to change it. */
export function ApiKeyButton() {
  const app = useApp();
  const t = useT('common');
  if (!app.usesApiKey) return null;
  return (
    <button
      id="api-key-button"
      type="button"
      class="ghost-button"
      onClick={async () => {
        if (await app.askApiKey(null)) await app.reloadTree();
      }}
    >
      <Icon name="key" />
      <span>{t('apiKey.button')}</span>
    </button>
  );
}
