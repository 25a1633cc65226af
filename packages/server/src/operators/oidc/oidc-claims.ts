import { createHash } from 'node:crypto';
import type { OperatorIdentity } from '../operator-accounts.js';
import type { OidcOptions } from './oidc-options.js';

/** Why a signed-in user cannot be an operator. */
export class OidcRefusal extends Error {
  override readonly name = 'OidcRefusal';
}

/** The prefix of every single sign-on operator id: an operators-file id cannot hold a `:`. */
export const SSO_ID_PREFIX = 'sso:';

/** A `sub` kept as it is in the id (`sso:<sub>`, at most 64 characters, as every operator id). */
const PLAIN_SUBJECT = /^[A-Za-z0-9._@-]{1,60}$/;

/**
 * The operator an ID token's claims describe. The id is the provider's subject, the one claim
 * OpenID Connect makes stable and unique for the provider (`sub`; the issuer is the one
 * configured, and the library checked it): `sso:<sub>`, or `sso:` and a hash of it when the subject
 * has other characters or is longer. `preferred_username` and `email` are neither unique nor
 * stable (a user may choose them), so they only name the operator: the name is `name`, else
 * `preferred_username`, else a verified `email` (`email_verified: true`), else the id. The role
 * comes from the groups claim (`adminGroups` before `operatorGroups`), the teams from the groups
 * named `<teamPrefix><team>`. A user in none of the groups is refused: being known to the provider
 * does not make someone an operator.
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
  const sub = typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : null;
  if (!sub) throw new OidcRefusal('The ID token has no subject (sub): the provider is not OpenID Connect.');
  const id = `${SSO_ID_PREFIX}${PLAIN_SUBJECT.test(sub) ? sub : createHash('sha256').update(sub).digest('base64url')}`;
  const text = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 100) : null;
  const email = claims.email_verified === true ? text(claims.email) : null;
  const username = text(claims.preferred_username);
  if (!role) {
    throw new OidcRefusal(
      `"${username ?? email ?? sub}" is in none of the operator or admin groups (claim "${claim}"): ask an admin to add the account to one of them at the provider.`,
    );
  }
  const prefix = options.teamPrefix ?? 'team:';
  const teams = groups.filter((group) => group.startsWith(prefix) && group.length > prefix.length);
  const name = text(claims.name) ?? username ?? email ?? id;
  return { id, name, role, teams: teams.map((group) => group.slice(prefix.length)).sort() };
}
