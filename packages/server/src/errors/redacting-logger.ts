import type { Redactor } from '@treeagent/core/privacy';
import type { ServerLogger } from './error-response.js';

/**
 * A logger that redacts personal data (the agent's `redaction`, docs/privacy.md) from the message
 * and the details before they reach `logger`: an error keeps its name, code and stack (redacted),
 * objects are copied with every string redacted.
 */
export function redactingLogger(logger: ServerLogger, redactor: Redactor): ServerLogger {
  return {
    error(message, details) {
      if (details === undefined) logger.error(redactor.redactText(message));
      else logger.error(redactor.redactText(message), redactValue(details, redactor, 0));
    },
  };
}

function redactValue(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === 'string') return redactor.redactText(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) {
    const copy = new Error(redactor.redactText(value.message));
    copy.name = value.name;
    copy.stack = redactor.redactText(value.stack ?? '');
    for (const [key, field] of Object.entries(value)) {
      (copy as unknown as Record<string, unknown>)[key] = redactValue(field, redactor, depth + 1);
    }
    if (value.cause !== undefined) copy.cause = redactValue(value.cause, redactor, depth + 1);
    return copy;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactor, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, redactValue(field, redactor, depth + 1)]),
  );
}
