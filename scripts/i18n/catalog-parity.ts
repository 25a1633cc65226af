import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The reference language: every other language has exactly its keys. */
export const REFERENCE_LANGUAGE = 'en';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const VARIABLE = /\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g;

/** `{ "a.b": "text" }` from nested JSON; a value that is not a string or an object is a problem. */
function flatten(
  value: unknown,
  prefix: string,
  into: Map<string, string>,
  problems: string[],
  file: string,
): void {
  if (typeof value === 'string') {
    into.set(prefix, value);
    return;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value))
      flatten(child, prefix ? `${prefix}.${key}` : key, into, problems, file);
    return;
  }
  problems.push(
    `${file}: "${prefix}" is ${JSON.stringify(value)}; write a string (or an object of strings).`,
  );
}

function variables(text: string): string {
  return [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1]))].sort().join(', ');
}

/** Keys with their plural suffix removed, and the plural forms each has. */
function grouped(keys: Map<string, string>): Map<string, Map<string, string>> {
  const groups = new Map<string, Map<string, string>>();
  for (const [key, text] of keys) {
    const match = PLURAL.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    const form = match ? (match[1] as string) : '';
    if (!groups.has(base)) groups.set(base, new Map());
    groups.get(base)?.set(form, text);
  }
  return groups;
}

/**
 * What is wrong with the catalogs under `directory` (`<language>/<namespace>.json`), one line per
 * problem naming the file and the key: a namespace or key of the reference language missing in
 * another, a key no reference has, a plural missing a form the language needs (`Intl.PluralRules`),
 * interpolation variables (`{{name}}`) that differ from the reference's. Empty when all agree.
 * `ignoredNamespaces` are catalogs another bundle owns and checks (the widget's).
 */
export function catalogProblems(directory: string, ignoredNamespaces: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (!existsSync(join(directory, REFERENCE_LANGUAGE)))
    return [`${directory} has no ${REFERENCE_LANGUAGE}/ folder: the reference catalogs are English.`];
  const languages = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const namespaces = (language: string) =>
    readdirSync(join(directory, language))
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .filter((namespace) => !ignoredNamespaces.includes(namespace));
  const read = (language: string, namespace: string) => {
    const file = `${language}/${namespace}.json`;
    const keys = new Map<string, string>();
    try {
      flatten(JSON.parse(readFileSync(join(directory, file), 'utf8')), '', keys, problems, file);
    } catch (error) {
      problems.push(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    return grouped(keys);
  };
  const reference = new Map(
    namespaces(REFERENCE_LANGUAGE).map((namespace) => [namespace, read(REFERENCE_LANGUAGE, namespace)]),
  );
  for (const language of languages.filter((name) => name !== REFERENCE_LANGUAGE)) {
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const own = namespaces(language);
    for (const namespace of own.filter((name) => !reference.has(name)))
      problems.push(
        `${language}/${namespace}.json has no ${REFERENCE_LANGUAGE}/${namespace}.json: remove it or add the English catalog.`,
      );
    for (const [namespace, englishGroups] of reference) {
      const file = `${language}/${namespace}.json`;
      if (!own.includes(namespace)) {
        problems.push(`${file} is missing: copy ${REFERENCE_LANGUAGE}/${namespace}.json and translate it.`);
        continue;
      }
      const groups = read(language, namespace);
      for (const [key, englishForms] of englishGroups) {
        const translated = groups.get(key);
        if (!translated) {
          problems.push(
            `${file}: key "${key}" is missing (${REFERENCE_LANGUAGE}: ${JSON.stringify([...englishForms.values()][0])}).`,
          );
          continue;
        }
        const plural = englishForms.has('other') || !englishForms.has('');
        for (const form of plural ? forms : [''])
          if (!translated.has(form))
            problems.push(
              `${file}: key "${key}_${form}" is missing: ${language} needs the plural form "${form}".`,
            );
        const expected = variables([...englishForms.values()].join(' '));
        for (const [form, text] of translated) {
          const found = variables(text);
          if (found !== expected)
            problems.push(
              `${file}: key "${form ? `${key}_${form}` : key}" uses {{${found}}}; the English text uses {{${expected}}}.`,
            );
        }
      }
      for (const key of groups.keys())
        if (!englishGroups.has(key))
          problems.push(
            `${file}: key "${key}" is not in ${REFERENCE_LANGUAGE}/${namespace}.json: remove it or add it there.`,
          );
    }
  }
  return problems;
}
