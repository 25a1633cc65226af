/** The parts of an incoming Bot Framework activity the Teams channel reads. */
export interface TeamsActivity {
  type: string;
  id?: string;
  serviceUrl?: string;
  channelId?: string;
  from?: { id: string; name?: string };
  conversation?: { id: string; conversationType?: string; tenantId?: string };
  recipient?: { id: string; name?: string };
  text?: string;
  /** An invoke's name (`fileConsent/invoke`). */
  name?: string;
  /** The data of the Adaptive Card's Action.Submit the user pressed. */
  value?: unknown;
  attachments?: TeamsAttachment[];
}

/** An attachment of an incoming message: a file from a personal chat, an inline image, or Teams' HTML copy of the text. */
export interface TeamsAttachment {
  contentType: string;
  contentUrl?: string;
  name?: string;
  content?: { downloadUrl?: string; uniqueId?: string; fileType?: string };
}

/** The key of the option in an Action.Submit's data. */
export const OPTION_KEY = 'treeagentOption';

/** The option of an Action.Submit press, or `null`. */
export function optionOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const option = (value as Record<string, unknown>)[OPTION_KEY];
  return typeof option === 'string' && option ? option : null;
}

/** The user's text without the `<at>…</at>` mention of the bot Teams puts in channel messages. */
export function textOf(activity: TeamsActivity): string {
  return (activity.text ?? '').replace(/<at>[^<]*<\/at>/g, '').trim();
}

/** An Adaptive Card with the text and one Action.Submit per option (its data carries the option). */
export function optionsCard(text: string, options: readonly string[]) {
  return {
    contentType: 'application/vnd.microsoft.card.adaptive',
    content: {
      type: 'AdaptiveCard',
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      version: '1.4',
      body: text ? [{ type: 'TextBlock', text, wrap: true }] : [],
      actions: options.map((option) => ({
        type: 'Action.Submit',
        title: option,
        data: { [OPTION_KEY]: option },
      })),
    },
  };
}
