import type { RedactionOptions } from '@treeagent/core/privacy';

/** The redaction flags of `treeagent serve` and `treeagent dev`. */
export interface RedactionFlags {
  /** `--redact`: redact personal data before anything is stored. */
  redact?: boolean;
  /**
   * `--redact-live <detectors>`: the detectors (comma-separated: `phone,email`) whose values the live
   * turn still sees — a form step that asks for a phone number gets it — while what is stored stays
   * redacted. Implies `--redact`.
   */
  redactLive?: string;
}

/** The agent's `redaction` option for the flags, or `null` without them (docs/privacy.md). */
export function redactionOption(flags: RedactionFlags): RedactionOptions | null {
  if (!flags.redact && flags.redactLive === undefined) return null;
  const liveTurn = (flags.redactLive ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return liveTurn.length ? { liveTurn } : {};
}

/** The flags' help, shared by `serve` and `dev`. */
export const REDACTION_FLAGS = [
  {
    flags: '--redact',
    description:
      'redact personal data (e-mail, phone, IBAN, cards, codice fiscale) before anything is stored; the turn itself sees placeholders too',
  },
  {
    flags: '--redact-live <detectors>',
    description:
      'with --redact (implied): the detectors whose values the turn still sees, comma-separated (e.g. phone,email) — a form that asks for a phone number gets it; what is stored stays redacted',
  },
] as const;
