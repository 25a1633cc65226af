import { useT } from '../i18n/use-t';
import { ConsoleView } from '../operators/console-view';
import { OperatorGate } from '../operators/operator-gate';

/** The operator console (operators): the queue of handed-off sessions, one session's transcript, reply, hand back. */
export function ConsolePage() {
  const t = useT('common');
  return (
    <OperatorGate title={t('gate.console')}>
      <ConsoleView />
    </OperatorGate>
  );
}
