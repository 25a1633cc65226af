import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { Icon } from '../components/icon';

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
  const { sessionId } = props;
  return (
    <TopBar>
      <span id="session-label" class="session-label" title={sessionId ? `Session ${sessionId}` : ''}>
        {sessionId ? `session ${sessionId.slice(0, 8)}` : ''}
      </span>
      <ApiKeyButton />
      <button
        id="new-chat"
        type="button"
        class="ghost-button"
        title="Start a new session"
        onClick={props.onNewChat}
      >
        <Icon name="plus" />
        <span>New chat</span>
      </button>
      <button
        id="save-test"
        type="button"
        class="ghost-button"
        title="Download this conversation as a YAML conversation test (treeagent test)"
        disabled={!props.canSave}
        onClick={props.onSave}
      >
        <Icon name="file" />
        <span>Save as test</span>
      </button>
      {app.debug ? (
        <button
          id="toggle-debug"
          type="button"
          class="ghost-button"
          title="Debug view of the turns"
          aria-controls="side"
          aria-pressed={props.inspectorTab === 'debug' ? 'true' : 'false'}
          onClick={() => props.onToggle('debug')}
        >
          <Icon name="bug" />
          <span>Debug</span>
        </button>
      ) : null}
      <button
        id="toggle-tree"
        type="button"
        class="ghost-button"
        title="The agent's tree"
        aria-controls="side"
        aria-pressed={props.inspectorTab === 'tree' ? 'true' : 'false'}
        onClick={() => props.onToggle('tree')}
      >
        <Icon name="route" />
        <span>Tree</span>
      </button>
    </TopBar>
  );
}

/** "API key", once the server asked for one: to change it. */
export function ApiKeyButton() {
  const app = useApp();
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
      <span>API key</span>
    </button>
  );
}
