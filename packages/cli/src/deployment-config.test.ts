import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeDeploymentConfig, readDeploymentConfig } from './deployment-config.js';

const scratch = mkdtempSync(join(tmpdir(), 'treeagent-deployment-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.TEST_SMTP_PASSWORD;
  delete process.env.TEST_OIDC_SECRET;
});
const tree = join(scratch, 'tree.json');

/** Writes `treeagent.config.json` beside the tree and reads it. */
function read(config: Record<string, unknown>) {
  writeFileSync(join(scratch, 'treeagent.config.json'), JSON.stringify({ models: {}, ...config }));
  return () => readDeploymentConfig(tree);
}

function secretFile(name: string, text: string, mode: number): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return name;
}

const oidc = {
  issuer: 'https://login.example.com/realms/staff',
  clientId: 'treeagent-console',
  redirectUri: 'https://agent.example.com/api/v1/operator/oidc/callback',
  adminGroups: ['helpdesk-admins'],
  operatorGroups: ['helpdesk'],
};

/** A team with every setting: it is passed to the server as written. */
const billing = {
  policy: 'least-busy',
  maxConcurrent: 2,
  name: 'Billing',
  hours: { timeZone: 'Europe/Rome', open: { mon: ['09:00-13:00', '14:00-18:00'] } },
  outOfHoursMessage: 'Closed: leave a message.',
};

describe('the helpDesk and oidc sections of treeagent.config.json', () => {
  it('a complete help desk becomes the handoff options, secrets from the environment and a 0600 file', () => {
    process.env.TEST_SMTP_PASSWORD = 'smtp-password';
    const config = read({
      helpDesk: {
        maxConcurrent: 4,
        teams: {
          billing,
        },
        webhook: {
          url: 'https://desk.example.com/hook',
          secretFile: secretFile('hook', 'hook-secret\n', 0o600),
        },
        escalation: {
          afterMs: 600000,
          webhook: true,
          email: {
            smtp: { host: 'smtp.example.com', port: 587, user: 'desk', passwordEnv: 'TEST_SMTP_PASSWORD' },
            from: 'Desk <desk@example.com>',
            to: { billing: ['lead@example.com'], default: ['all@example.com'] },
          },
        },
      },
    })();
    expect(config.oidc).toBeNull();
    expect(describeDeploymentConfig(config)).toBe(
      'Help desk from the configuration: team billing (least-busy, hours in Europe/Rome); at most 4 conversations per operator; webhook to desk.example.com; escalation after 600 s by e-mail through smtp.example.com and webhook.',
    );
    expect(JSON.stringify(describeDeploymentConfig(config))).not.toMatch(/hook-secret|smtp-password/);
    expect(describeDeploymentConfig({ handoff: {}, oidc: null })).toBeNull();
    expect(config.handoff).toEqual({
      maxConcurrent: 4,
      teams: {
        billing,
      },
      webhook: { url: 'https://desk.example.com/hook', secret: 'hook-secret' },
      escalation: {
        afterMs: 600000,
        webhook: true,
        email: {
          smtp: { host: 'smtp.example.com', port: 587, auth: { user: 'desk', pass: 'smtp-password' } },
          from: 'Desk <desk@example.com>',
          to: { billing: ['lead@example.com'], default: ['all@example.com'] },
        },
      },
    });
  });

  it('refuses a wrong field naming it and the fix', () => {
    const team = (fields: Record<string, unknown>) => read({ helpDesk: { teams: { billing: fields } } });
    expect(team({ policy: 'random' })).toThrow(
      /"helpDesk\.teams\.billing\.policy" is "random": use "manual", "round-robin" or "least-busy"/,
    );
    expect(team({ hours: { timeZone: 'Rome', open: {} } })).toThrow(
      /"helpDesk\.teams\.billing\.hours\.timeZone".*IANA/,
    );
    expect(team({ hours: { timeZone: 'Europe/Rome', open: { monday: [] } } })).toThrow(
      /"helpDesk\.teams\.billing\.hours\.open\.monday" is not a day/,
    );
    expect(team({ hours: { timeZone: 'Europe/Rome', open: { mon: ['18:00-09:00'] } } })).toThrow(
      /"09:00-18:00"/,
    );
    expect(team({ polcy: 'manual' })).toThrow(/"helpDesk\.teams\.billing\.polcy" is not a setting here/);
    expect(read({ helpDesk: { escalation: { afterMs: 1000, webhook: true } } })).toThrow(
      /"helpDesk\.escalation\.webhook" is true but there is no "helpDesk\.webhook"/,
    );
    expect(read({ helpDesk: { escalation: { email: { smtp: { host: 'x' } } } } })).toThrow(
      /"helpDesk\.escalation\.afterMs" is missing/,
    );
  });

  it('never takes a secret from the file itself, nor from a file other users can read, nor from an unset variable', () => {
    const hook = (fields: Record<string, unknown>) =>
      read({ helpDesk: { webhook: { url: 'https://desk.example.com/hook', ...fields } } });
    expect(hook({ secret: 'in-the-file' })).toThrow(
      /"helpDesk\.webhook\.secret" would keep a secret in the configuration file: remove it and write "secretEnv"/,
    );
    expect(hook({ secretFile: secretFile('open-hook', 'x', 0o644) })).toThrow(
      /can be read by other users.*chmod 600/,
    );
    expect(hook({ secretEnv: 'TEST_UNSET_SECRET' })).toThrow(/TEST_UNSET_SECRET, which is not set/);
    expect(hook({})).toThrow(/"helpDesk\.webhook\.secretEnv" is missing/);
    const smtp = {
      afterMs: 1000,
      email: {
        smtp: { host: 'smtp.example.com', user: 'desk', password: 'p' },
        from: 'a@example.com',
        to: ['b@example.com'],
      },
    };
    expect(read({ helpDesk: { escalation: smtp } })).toThrow(
      /"helpDesk\.escalation\.email\.smtp\.password" would keep a secret/,
    );
  });

  it('oidc: the client secret read at once; a missing one names the fix', () => {
    expect(read({ oidc })).toThrow(
      /"oidc\.clientSecretEnv" is missing: the secret is needed; write "clientSecretEnv": "SOME_VARIABLE"/,
    );
    expect(read({ oidc: { ...oidc, clientSecretEnv: 'TEST_OIDC_SECRET' } })).toThrow(
      /TEST_OIDC_SECRET, which is not set/,
    );
    expect(read({ oidc: { ...oidc, clientSecretEnv: 'X', issuer: 'http://login.example.com' } })).toThrow(
      /https/,
    );
    process.env.TEST_OIDC_SECRET = 'oidc-secret';
    expect(
      read({
        oidc: { ...oidc, clientSecretEnv: 'TEST_OIDC_SECRET', groupsClaim: 'roles', teamPrefix: 'desk-' },
      })().oidc,
    ).toEqual({
      ...oidc,
      clientSecret: 'oidc-secret',
      groupsClaim: 'roles',
      teamPrefix: 'desk-',
    });
    expect(
      read({ oidc: { ...oidc, adminGroups: [], operatorGroups: [], clientSecretEnv: 'TEST_OIDC_SECRET' } }),
    ).toThrow(/nobody could sign in/);
  });
});
