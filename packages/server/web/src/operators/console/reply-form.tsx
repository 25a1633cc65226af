import { useRef, useState } from 'preact/hooks';
import { handoffApi } from '../../api/handoff-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { CANNED_LIST_ID, CannedSuggestions, cannedOptionId } from './canned-suggestions';
import { replyRequest } from './console-model';
import { useCannedResponses } from './use-canned-responses';

/**
 * The operator's reply to the user (text, comma-separated options, files), enabled for the operator
 * who holds the session; typing is signalled to the user's page while the box has text; a typed
 * `/shortcut` offers the canned responses of the session's team, filled from its `state`.
 */
export function ReplyForm({
  sessionId,
  mine,
  holderName,
  run,
  reload,
  team,
  state,
}: {
  sessionId: string;
  mine: boolean;
  /** The operator who holds the session when it is not this one (`null`: nobody holds it yet, it can be claimed). */
  holderName: string | null;
  /** The session's team (its handoff queue), whose canned responses the box offers. */
  team: string | null;
  /** The session's state, which fills the canned responses' variables. */
  state: Record<string, unknown>;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  reload: () => Promise<void>;
}) {
  const { api } = useApp();
  const t = useT('console');
  const [reply, setReply] = useState('');
  const [options, setOptions] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const typing = useRef(false);
  const canned = useCannedResponses(reply, team, state, setReply);

  const setTyping = (value: boolean) => {
    if (!mine || typing.current === value) return;
    typing.current = value;
    void handoffApi.typing(api, sessionId, value).catch(() => {});
  };

  const send = async (event: Event) => {
    event.preventDefault();
    if (!reply.trim() && files.length === 0) return;
    const sent = await run(async () => {
      const uploaded = [];
      for (const file of files) uploaded.push(await handoffApi.upload(api, sessionId, file));
      await handoffApi.reply(
        api,
        sessionId,
        replyRequest(
          reply,
          options,
          uploaded.map((file) => file.id),
        ),
      );
    });
    if (sent) {
      setReply('');
      setOptions('');
      setFiles([]);
      setTyping(false);
      await reload();
    }
  };

  return (
    <form id="reply-form" class="reply-form" onSubmit={send}>
      <textarea
        id="reply-input"
        rows={3}
        // The server's limit of an operator's message (handoff-routes.ts): the box stops there
        // instead of a refusal after Send.
        maxLength={10_000}
        placeholder={
          mine
            ? t('reply.placeholder')
            : holderName
              ? t('reply.heldBy', { name: holderName })
              : t('reply.claimFirst')
        }
        disabled={!mine}
        value={reply}
        aria-autocomplete="list"
        aria-controls={canned.matches.length > 0 ? CANNED_LIST_ID : undefined}
        aria-activedescendant={
          canned.matches.length > 0 ? cannedOptionId(canned.matches[canned.active]!.id) : undefined
        }
        onInput={(event) => {
          const value = (event.currentTarget as HTMLTextAreaElement).value;
          setReply(value);
          setTyping(value.trim() !== '');
        }}
        onBlur={() => setTyping(false)}
        onKeyDown={(event) => {
          if (canned.onKeyDown(event)) return;
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            (event.currentTarget.form as HTMLFormElement).requestSubmit();
          }
        }}
      />
      <CannedSuggestions {...canned} />
      <div class="reply-extras">
        <input
          id="reply-options"
          placeholder={t('reply.options')}
          disabled={!mine}
          value={options}
          onInput={(event) => setOptions((event.currentTarget as HTMLInputElement).value)}
        />
        <input
          id="reply-file"
          aria-label={t('reply.attach')}
          type="file"
          multiple
          disabled={!mine}
          onChange={(event) => setFiles([...((event.currentTarget as HTMLInputElement).files ?? [])])}
        />
        <button id="reply-send" type="submit" class="primary-button" disabled={!mine}>
          {t('reply.send')}
        </button>
      </div>
    </form>
  );
}
