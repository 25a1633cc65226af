import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DECOY_PASSWORD_HASH, isOperatorPasswordHash, verifyOperatorPassword } from './operator-password.js';

/**
 * What an operator may do. `operator`: the console (queue, claim, reply, hand back, close).
 * `admin`: everything an operator may, plus the admin functions (the audit log, analytics).
 */
export type OperatorRole = 'operator' | 'admin';

/** The roles in increasing order of power: a role may do what the roles before it may. */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['operator', 'admin'];

/** Whether `role` may do what `required` may. */
export function roleAllows(role: OperatorRole, required: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(required);
}

/** Who an authenticated operator is (what routes and the audit log see; never the password). */
export interface OperatorIdentity {
  /** The login: letters, digits, `.`, `_`, `-`, `@`; unique. */
  id: string;
  /** The name colleagues and users see (the console, "Anna is answering"). */
  name: string;
  role: OperatorRole;
  /** The teams (handoff queues) the operator works in; none: every queue. */
  teams?: string[];
}

/** One operator as configured: the identity and the hash of the password (`hashOperatorPassword`). */
export interface OperatorAccount extends OperatorIdentity {
  passwordHash: string;
}

/**
 * Where the server finds its operators. `operatorDirectory(accounts)` keeps a fixed list (from
 * `loadOperatorsFile`); an implementation may read a database or a directory service. `find` runs on
 * every operator request, so a removed operator or a changed role takes effect at once.
 */
export interface OperatorDirectory {
  /** The operator whose login and password these are, or `null` (unknown login or wrong password). */
  authenticate(login: string, password: string): Promise<OperatorIdentity | null>;
  /** The operator with this id now, or `null` when there is none (any longer). */
  find(id: string): Promise<OperatorIdentity | null>;
  /**
   * Optional: calls `listener` whenever the directory changes, with who was removed or changed; the
   * server then ends their open event streams, and deletes the logins of those removed or whose
   * password changed. Returns the unsubscribe function.
   */
  onChange?(listener: (change: OperatorDirectoryChange) => void): () => void;
}

/** Who a change of the directory concerns (operator ids). */
export interface OperatorDirectoryChange {
  /** No longer in the directory. */
  removed: string[];
  /** Still there with another role, name or password. */
  changed: string[];
  /** Of `changed`, those whose password changed (their logins end too). */
  passwordChanged: string[];
}

/** An `OperatorDirectory` whose accounts can be replaced while the server runs (an operators file reloaded). */
export interface UpdatableOperatorDirectory extends OperatorDirectory {
  /**
   * Replaces the accounts: checked like the first ones (on a problem it throws and keeps the
   * previous accounts); then the listeners of `onChange` hear who was removed or changed, and so
   * does the caller.
   */
  update(accounts: readonly OperatorAccount[]): OperatorDirectoryChange;
  onChange(listener: (change: OperatorDirectoryChange) => void): () => void;
}

const OPERATOR_ID = /^[A-Za-z0-9._@-]{1,64}$/;

const AccountSchema = z.strictObject({
  id: z.string().regex(OPERATOR_ID, 'an id is 1–64 letters, digits, ".", "_", "-" or "@"'),
  name: z.string().trim().min(1, 'give the name colleagues see').max(100),
  role: z.enum(['operator', 'admin']),
  teams: z
    .array(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a team is 1–64 letters, digits, ".", "_" or "-"'))
    .optional(),
  passwordHash: z.string().refine(isOperatorPasswordHash, {
    message:
      'not a hash of hashOperatorPassword (scrypt$N$r$p$salt$key); make one with `treeagent operator-password`',
  }),
});

const FileSchema = z.strictObject({ operators: z.array(AccountSchema).min(1, 'list at least one operator') });

/**
 * Checks a list of operator accounts: every problem (a malformed id or hash, a duplicate id) is
 * reported at once, naming `source` (a file) and the operator.
 */
export function parseOperatorAccounts(value: unknown, source = 'the operators'): OperatorAccount[] {
  const result = FileSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.map(String).join('.') || '(top level)';
      return `  ${path}: ${issue.message}`;
    });
    throw new Error(
      `${source} is not a valid operators file ({ "operators": [{ id, name, role, passwordHash }] }):\n${problems.join('\n')}`,
    );
  }
  const seen = new Set<string>();
  for (const account of result.data.operators) {
    if (seen.has(account.id)) {
      throw new Error(`${source}: the operator id "${account.id}" appears twice; ids must be unique.`);
    }
    seen.add(account.id);
  }
  return result.data.operators;
}

/**
 * Reads an operators file: JSON `{ "operators": [{ "id", "name", "role", "passwordHash" }] }`, the
 * hashes made by `hashOperatorPassword` (or `treeagent operator-password`). Keep it out of version
 * control and readable only by the server's account.
 *
 * @example
 * const app = createApp({ agent, operators: { directory: operatorDirectory(loadOperatorsFile('operators.json')) } });
 */
export function loadOperatorsFile(file: string): OperatorAccount[] {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the operators file ${path}: ${(error as Error).message}. Check the path.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The operators file ${path} is not valid JSON: ${(error as Error).message}.`);
  }
  return parseOperatorAccounts(value, `The operators file ${path}`);
}

/**
 * An `OperatorDirectory` over a list of accounts (checked by `parseOperatorAccounts`), which
 * `update` replaces while the server runs: a removed operator can no longer log in and their login
 * is refused at once, a new role applies to the next request (`treeagent serve` reloads its
 * `--operators` file this way).
 */
export function operatorDirectory(accounts: readonly OperatorAccount[]): UpdatableOperatorDirectory {
  let byId = indexAccounts(accounts);
  const listeners = new Set<(change: OperatorDirectoryChange) => void>();
  const identity = ({ id, name, role, teams }: OperatorAccount): OperatorIdentity =>
    teams ? { id, name, role, teams: [...teams] } : { id, name, role };
  return {
    async authenticate(login, password) {
      const account = byId.get(login);
      // The decoy keeps an unknown login as slow as a wrong password.
      const matches = await verifyOperatorPassword(password, account?.passwordHash ?? DECOY_PASSWORD_HASH);
      // The accounts may have changed while the password was checked: ask again.
      const now = byId.get(login);
      return account && matches && now?.passwordHash === account.passwordHash ? identity(now) : null;
    },
    async find(id) {
      const account = byId.get(id);
      return account ? identity(account) : null;
    },
    update(next) {
      const updated = indexAccounts(next);
      const change: OperatorDirectoryChange = { removed: [], changed: [], passwordChanged: [] };
      for (const [id, before] of byId) {
        const after = updated.get(id);
        if (!after) change.removed.push(id);
        else if (after.passwordHash !== before.passwordHash) {
          change.changed.push(id);
          change.passwordChanged.push(id);
        } else if (
          after.role !== before.role ||
          after.name !== before.name ||
          String(after.teams) !== String(before.teams)
        )
          change.changed.push(id);
      }
      byId = updated;
      for (const listener of [...listeners]) listener(change);
      return change;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function indexAccounts(accounts: readonly OperatorAccount[]): Map<string, OperatorAccount> {
  const checked = parseOperatorAccounts({ operators: accounts });
  return new Map(checked.map((account) => [account.id, account]));
}
