import type { PresenceResponse, TransferRequest } from '../../api/routing-api';

/** Where the operator can pass a conversation: the other teams, and the other operators online. */
export interface TransferTargets {
  teams: string[];
  operators: { id: string; name: string }[];
}

/**
 * The targets of a transfer from what the console knows of presence and teams: every team but the
 * conversation's own (`team`), and every operator online but the one looking (`operatorId`).
 */
export function transferTargets(
  presence: PresenceResponse,
  operatorId: string,
  team: string,
): TransferTargets {
  return {
    teams: presence.teams.map((item) => item.team).filter((name) => name !== team),
    operators: presence.presence
      .filter((item) => item.status === 'online' && item.operatorId !== operatorId)
      .map((item) => ({ id: item.operatorId, name: item.name })),
  };
}

/** The value of a target in the dialog's list: `team:<name>` or `operator:<id>`. */
export function targetValue(target: { team: string } | { operatorId: string }): string {
  return 'team' in target ? `team:${target.team}` : `operator:${target.operatorId}`;
}

/** The first target of the list (teams first), or `''` when there is none. */
export function firstTarget(targets: TransferTargets): string {
  if (targets.teams[0] !== undefined) return targetValue({ team: targets.teams[0] });
  if (targets.operators[0]) return targetValue({ operatorId: targets.operators[0].id });
  return '';
}

/** The request for a chosen target and note (a blank note is left out); `null` when no target is chosen. */
export function transferRequest(value: string, note: string): TransferRequest | null {
  const colon = value.indexOf(':');
  const kind = value.slice(0, colon);
  const name = value.slice(colon + 1);
  if (colon === -1 || !name || (kind !== 'team' && kind !== 'operator')) return null;
  const trimmed = note.trim();
  return {
    ...(kind === 'team' ? { team: name } : { operatorId: name }),
    ...(trimmed ? { note: trimmed } : {}),
  };
}
