import { useT } from '../../i18n/use-t';
import './console-phone.css';

/**
 * On a phone the console shows the queue or one conversation, not both (console-phone.css): this
 * button, above the conversation, goes back to the queue. Hidden on wider screens.
 */
export function BackToQueue({ onBack }: { onBack: () => void }) {
  const t = useT('console');
  return (
    <button id="back-to-queue" type="button" class="ghost-button console-back" onClick={onBack}>
      ← {t('phone.back')}
    </button>
  );
}
