import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Single sign-on for operators and admins through an OpenID Connect provider (option `oidc` of
 * `operators`): authorization code with PKCE, the role and the teams read from a claim of the ID token.
 *
 * @example
 * operators: {
 *   directory: operatorDirectory(loadOperatorsFile('operators.json')), // optional with oidc
 *   oidc: {
 *     issuer: 'https://login.example.com/realms/staff',
 *     clientId: 'treeagent-console',
 *     clientSecretEnv: 'TREEAGENT_OIDC_CLIENT_SECRET',
 *     redirectUri: 'https://agent.example.com/api/v1/operator/oidc/callback',
 *     adminGroups: ['helpdesk-admins'],
 *     operatorGroups: ['helpdesk'],
 *   },
 * }
 */
export interface OidcOptions {
  /** The provider's issuer URL (its `/.well-known/openid-configuration` is read on the first sign-in). */
  issuer: string;
  clientId: string;
  /** The client secret itself (prefer `clientSecretEnv` or `clientSecretFile`: never put it in a config file under version control). */
  clientSecret?: string;
  /** The environment variable that holds the client secret. */
  clientSecretEnv?: string;
  /** A file holding the client secret (one line); it must be readable by its owner only (mode 0600 or 0400). */
  clientSecretFile?: string;
  /** This server's callback: `https://<host>/api/v1/operator/oidc/callback`, registered at the provider. */
  redirectUri: string;
  /** Where the provider sends the browser after signing out there. Default: the console (`<origin>/staff/console`). */
  postLogoutRedirectUri?: string;
  /** The claim of the ID token that lists the user's groups. Default `groups`. */
  groupsClaim?: string;
  /** Members of these groups are admins. */
  adminGroups: string[];
  /** Members of these groups are operators (an admin group wins). A user in none of them is refused. */
  operatorGroups: string[];
  /** A group named `<teamPrefix><team>` puts the user in that team (queue). Default `team:`. */
  teamPrefix?: string;
  /** Scopes asked for. Default `openid profile email` plus `groups` when `groupsClaim` is `groups`. */
  scopes?: string[];
  /** The name on the sign-in button. Default "Sign in with single sign-on". */
  label?: string;
  /** Accept an `http:` issuer (a provider on loopback in tests). Never in production. */
  allowInsecureIssuer?: boolean;
}

/**
 * The client secret of `options`, from exactly one of `clientSecret`, `clientSecretEnv` or
 * `clientSecretFile` (which must not be readable by group or others); throws naming what to fix.
 */
export function resolveClientSecret(options: OidcOptions): string {
  const given = [options.clientSecret, options.clientSecretEnv, options.clientSecretFile].filter(
    (value) => value !== undefined,
  );
  if (given.length !== 1) {
    throw new TypeError(
      `operators.oidc needs exactly one of clientSecret, clientSecretEnv or clientSecretFile (${given.length} given): the client secret of "${options.clientId}" at the provider.`,
    );
  }
  if (options.clientSecret !== undefined) return checked(options.clientSecret, 'operators.oidc.clientSecret');
  if (options.clientSecretEnv !== undefined) {
    const value = process.env[options.clientSecretEnv];
    if (value === undefined) {
      throw new TypeError(
        `operators.oidc.clientSecretEnv names the environment variable ${options.clientSecretEnv}, which is not set: export it with the client secret of "${options.clientId}".`,
      );
    }
    return checked(value, `the environment variable ${options.clientSecretEnv}`);
  }
  const path = resolve(options.clientSecretFile!);
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    throw new TypeError(
      `Cannot read the OIDC client secret file ${path}: ${(error as Error).message}. Check operators.oidc.clientSecretFile.`,
    );
  }
  if ((mode & 0o077) !== 0) {
    throw new TypeError(
      `The OIDC client secret file ${path} is readable by others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${path}.`,
    );
  }
  return checked(readFileSync(path, 'utf8').trim(), `the file ${path}`);
}

function checked(secret: string, where: string): string {
  if (secret.trim() === '') throw new TypeError(`The OIDC client secret in ${where} is empty.`);
  return secret.trim();
}
