import type { OidcOptions } from '@treeagent/server';
import type { ConfigFields } from './config-fields.js';

/**
 * The `oidc` section of `treeagent.config.json` as the server's `operators.oidc` (single sign-on for
 * operators and admins; docs/security.md). The client secret comes from `clientSecretEnv` or
 * `clientSecretFile` (chmod 600) and is read now, so a missing one stops the start naming the fix.
 */
export function oidcOptions(section: ConfigFields): OidcOptions {
  section.only([
    'issuer',
    'clientId',
    'clientSecret',
    'clientSecretEnv',
    'clientSecretFile',
    'redirectUri',
    'postLogoutRedirectUri',
    'groupsClaim',
    'adminGroups',
    'operatorGroups',
    'teamPrefix',
    'scopes',
    'label',
    'allowInsecureIssuer',
  ]);
  const issuer = section.url('issuer', 'https://login.example.com/realms/staff', true)!;
  const allowInsecureIssuer = section.boolean('allowInsecureIssuer');
  if (!allowInsecureIssuer && issuer.startsWith('http:'))
    throw section.error(
      'issuer',
      'is http: the provider must be reached over https (only a test provider on loopback may set "allowInsecureIssuer": true).',
    );
  const clientId = section.requiredString('clientId', 'treeagent-console');
  const clientSecret = section.secret('clientSecret', true)!;
  const redirectUri = section.url(
    'redirectUri',
    'https://agent.example.com/api/v1/operator/oidc/callback',
    true,
  )!;
  const adminGroups = section.strings('adminGroups', ['helpdesk-admins']) ?? [];
  const operatorGroups = section.strings('operatorGroups', ['helpdesk']) ?? [];
  if (!adminGroups.length && !operatorGroups.length)
    throw section.error(
      'operatorGroups',
      'and "adminGroups" are both empty, so nobody could sign in: name the groups of your operators and admins, e.g. ["helpdesk"] and ["helpdesk-admins"].',
    );
  const optional = {
    postLogoutRedirectUri: section.url('postLogoutRedirectUri', 'https://agent.example.com/staff/console'),
    groupsClaim: section.string('groupsClaim', 'groups'),
    teamPrefix: section.string('teamPrefix', 'team:'),
    scopes: section.strings('scopes', ['openid', 'profile', 'email', 'groups']),
    label: section.string('label', 'Sign in with Acme SSO'),
    allowInsecureIssuer,
  };
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    adminGroups,
    operatorGroups,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
