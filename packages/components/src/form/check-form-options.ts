import { TreeAgentError } from '@treeagent/core';
import type { FormOptions } from './form-options.js';

/** Checks a form's options and reports every problem at once, each with its fix. */
export function checkFormOptions(options: FormOptions): void {
  const problems: string[] = [];
  const name = typeof options?.name === 'string' ? options.name : '';
  if (!name.trim()) problems.push('the form has no name: give it `name`, unique in the tree');
  if (!Array.isArray(options?.triggers) || options.triggers.length === 0)
    problems.push(
      '`triggers` is empty: give the phrases that lead exploration to the form ("vorrei prenotare…")',
    );
  if (!Array.isArray(options?.slots) || options.slots.length === 0)
    problems.push('`slots` is empty: declare at least one slot');
  const seen = new Set<string>();
  for (const [index, slot] of (options?.slots ?? []).entries()) {
    const where = `slot ${index} (${JSON.stringify(slot?.name)})`;
    if (!slot?.name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(slot.name))
      problems.push(
        `${where}: \`name\` must be letters, digits and _ (it is a key of the values and of the LLM's JSON schema)`,
      );
    else if (seen.has(slot.name))
      problems.push(`${where}: the name is used by another slot; slot names are unique`);
    seen.add(slot?.name);
    if (!slot?.question) problems.push(`${where}: \`question\` is missing: the text that asks for it`);
    if (slot?.type === 'enum' && (!slot.options || Object.keys(slot.options).length === 0))
      problems.push(`${where}: an enum slot needs \`options\` (values with their synonyms)`);
    if (slot?.type === 'regex' && !slot.pattern) problems.push(`${where}: a regex slot needs \`pattern\``);
    if (slot?.type === 'custom' && typeof slot.parse !== 'function')
      problems.push(`${where}: a custom slot needs \`parse(text)\` returning { value } or null`);
    const types = [
      'text',
      'enum',
      'integer',
      'number',
      'date',
      'time',
      'date-time',
      'email',
      'phone',
      'regex',
      'custom',
    ];
    if (!types.includes(slot?.type))
      problems.push(`${where}: unknown type ${JSON.stringify(slot?.type)}; use one of ${types.join(', ')}`);
  }
  if (options?.maxReasks !== undefined && (!Number.isInteger(options.maxReasks) || options.maxReasks < 0))
    problems.push('`maxReasks` must be an integer ≥ 0');
  if (options?.timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: options.timeZone });
    } catch {
      problems.push(
        `\`timeZone\` ${JSON.stringify(options.timeZone)} is not an IANA time zone (e.g. "Europe/Rome")`,
      );
    }
  }
  if (problems.length) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `form(${JSON.stringify(name)}): ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n- ${problems.join('\n- ')}`,
      { details: { form: name, problems } },
    );
  }
}
