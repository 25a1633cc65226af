import type { OperatorIdentity } from '../operator-accounts.js';
import type { OidcOptions } from './oidc-options.js';

/** Why a signed-in user cannot be an operator. */
export class OidcRefusal extends Error {
  override readonly name = 'OidcRefusal';
}

/**
 * The operator an ID token's claims describe: the id from `preferred_username` (else `email`, else
 * `sub`), the name from `name`, the role from the groups claim (`adminGroups` before
 * `operatorGroups`), the teams from the groups named `<teamPrefix><team>`. A user in none of the
 * groups is refused: being known to the provider does not make someone an operator.
 */
export function identityFromClaims(claims: Record<string, unknown>, options: OidcOptions): OperatorIdentity {
  const claim = options.groupsClaim ?? 'groups';
  const raw = claims[claim];
  const groups = Array.isArray(raw) ? raw.filter((group): group is string => typeof group === 'string') : [];
  const role = groups.some((group) => options.adminGroups.includes(group))
    ? 'admin'
    : groups.some((group) => options.operatorGroups.includes(group))
      ? 'operator'
      : null;
  const id = [claims.preferred_username, claims.email, claims.sub].find(
    (value): value is string => typeof value === 'string' && /^[A-Za-z0-9._@-]{1,64}$/.test(value),
  );
  if (!id) throw new OidcRefusal('The ID token has no usable preferred_username, email or sub.');
  if (!role) {
    throw new OidcRefusal(
      `"${id}" is in none of the operator or admin groups (claim "${claim}"): ask an admin to add the account to one of them at the provider.`,
    );
  }
  const prefix = options.teamPrefix ?? 'team:';
  const teams = groups.filter((group) => group.startsWith(prefix) && group.length > prefix.length);
  const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : id;
  return { id, name, role, teams: teams.map((group) => group.slice(prefix.length)).sort() };
}
