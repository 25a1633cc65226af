import { ConsoleView } from '../operators/console-view';
import { OperatorGate } from '../operators/operator-gate';

/** The operator console (operators): the queue of handed-off sessions, one session's transcript, reply, hand back. */
export function ConsolePage() {
  return (
    <OperatorGate title="the operator console">
      <ConsoleView />
    </OperatorGate>
  );
}
