import type { WidgetClient } from './widget-client';
import type { Composer } from './widget-composer';
import type { ConversationLog } from './widget-conversation-log';
import type { LiveStream } from './widget-live-stream';
import type { UnreadBadge } from './widget-unread';

/**
 * The conversation's past messages in the log: loaded when the panel first opens, and again when
 * another tab or widget changed the conversation (at once if the panel is open, else when it opens).
 */
export class ConversationHistory {
  #loaded = false;

  constructor(
    private readonly client: WidgetClient,
    private readonly panel: HTMLElement,
    private readonly log: ConversationLog,
    private readonly unread: UnreadBadge,
    private readonly composer: Composer,
    private readonly live: LiveStream,
  ) {}

  /** The panel opened: the history, unless it is there already. */
  show(): void {
    if (!this.#loaded) void this.load();
  }

  /** The conversation changed elsewhere: shown again now if the panel is open, else when it opens. */
  refresh(): void {
    if (!this.panel.hidden) void this.load();
    else this.#loaded = false;
  }

  async load(): Promise<void> {
    this.#loaded = true;
    try {
      const history = await this.client.history();
      // The log is cleared once the history is here, not before: what the live stream brings
      // meanwhile (it follows from the page's load) is in this history, and would show twice.
      if (history === null) {
        this.log.clear();
        return this.client.forget();
      }
      this.log.replaceWithHistory(history);
      // The last answer waits for the user's (a form's question): the box says so, as before the reload.
      this.composer.setWaiting(
        Boolean([...history].reverse().find((message) => message.role !== 'system')?.waiting),
      );
      this.unread.clear();
      this.live.follow();
    } catch (error) {
      this.log.showError(error, () => void this.load());
    }
  }
}
