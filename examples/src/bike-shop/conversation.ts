import type { AgentOutput, TreeAgent } from '@treeagent/core';

/** One scripted user turn: the text typed, or an option clicked. */
export interface ScriptedTurn {
  say: string;
  selectedOption?: string;
}

/** The scripted conversation that `npm start` plays and the example's test checks. */
export const script: ScriptedTurn[] = [
  { say: 'Ciao!' },
  { say: '', selectedOption: 'Spedizioni' },
  { say: 'e quanto ci mettete a consegnare?' },
  { say: 'vorrei restituire un prodotto difettoso' },
  { say: "dov'è il mio ordine?" },
  { say: 'non lo so' },
  { say: 'voglio parlare con un operatore' },
  { say: '', selectedOption: "Torna all'assistente" },
  { say: 'è il 123456' },
  { say: 'stupido bot' },
  { say: 'il mio ordine non è arrivato' },
  { say: 'mi serve un preventivo per una bici da corsa su misura' },
  { say: 'fate anche noleggio di tandem?' },
  { say: 'ok grazie' },
];

/** Plays the script against an agent, calling `onTurn` after each answer. */
export async function playScript(
  agent: TreeAgent,
  sessionId: string,
  onTurn: (turn: ScriptedTurn, output: AgentOutput) => void = () => {},
): Promise<AgentOutput[]> {
  const outputs: AgentOutput[] = [];
  for (const turn of script) {
    const output = await agent.send(
      sessionId,
      turn.say,
      turn.selectedOption ? { selectedOption: turn.selectedOption } : {},
    );
    outputs.push(output);
    onTurn(turn, output);
  }
  return outputs;
}

/** The nodes a turn went through, as `name#id` (explore hops and executed nodes). */
export function describePath(output: AgentOutput, nameOf: (id: number) => string): string {
  const executed = output.trace
    .filter((event) => event.type === 'step-start' && event.step === 'execute')
    .map((event) => (event as { nodeId: number }).nodeId);
  return executed.map((id) => `${nameOf(id)}#${id}`).join(' → ') || '(nothing executed)';
}
