import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HandoffOptions, OidcOptions } from '@treeagent/server';
import { ConfigFields } from './config-fields.js';
import { helpDeskOptions } from './help-desk-config.js';
import { oidcOptions } from './oidc-config.js';

/** What `treeagent serve` and `dev` take from the configuration file besides the models. */
export interface DeploymentConfig {
  /** The `helpDesk` section: teams, escalation, the handoff webhook (merged into `handoff`). */
  handoff: Partial<HandoffOptions>;
  /** The `oidc` section: single sign-on for operators (`operators.oidc`), or null. */
  oidc: OidcOptions | null;
}

/**
 * Reads the `helpDesk` and `oidc` sections of the configuration (`--config`, else
 * `treeagent.config.json` beside the tree), secrets included, before anything starts: an invalid
 * field or a missing or world-readable secret is an `INVALID_INPUT` error naming the field and the
 * fix. No file, or neither section: nothing configured.
 */
export function readDeploymentConfig(treePath: string, config?: string): DeploymentConfig {
  const path = resolve(config ?? join(dirname(treePath), 'treeagent.config.json'));
  if (!existsSync(path)) return { handoff: {}, oidc: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return { handoff: {}, oidc: null }; // The model configuration's reader reports a file that is not JSON.
  }
  if (typeof parsed !== 'object' || parsed === null) return { handoff: {}, oidc: null };
  const helpDesk = ConfigFields.section(path, parsed as Record<string, unknown>, 'helpDesk');
  const oidc = ConfigFields.section(path, parsed as Record<string, unknown>, 'oidc');
  return { handoff: helpDesk ? helpDeskOptions(helpDesk) : {}, oidc: oidc ? oidcOptions(oidc) : null };
}

/** One line for the start-up message of what the configuration sets (no secrets), or null when nothing. */
export function describeDeploymentConfig(config: DeploymentConfig): string | null {
  const { teams = {}, escalation, webhook, maxConcurrent } = config.handoff;
  const parts = [
    ...Object.entries(teams).map(
      ([team, options]) =>
        `team ${team} (${options.policy ?? 'manual'}${options.hours ? `, hours in ${options.hours.timeZone}` : ''})`,
    ),
    ...(maxConcurrent === undefined ? [] : [`at most ${maxConcurrent} conversations per operator`]),
    ...(webhook ? [`webhook to ${new URL(webhook.url).host}`] : []),
    ...(escalation
      ? [
          `escalation after ${Math.round(escalation.afterMs / 1000)} s by ${[escalation.email ? `e-mail through ${escalation.email.smtp.host}` : '', escalation.webhook ? 'webhook' : ''].filter(Boolean).join(' and ')}`,
        ]
      : []),
    ...(config.oidc ? [`single sign-on through ${config.oidc.issuer}`] : []),
  ];
  return parts.length ? `Help desk from the configuration: ${parts.join('; ')}.` : null;
}
