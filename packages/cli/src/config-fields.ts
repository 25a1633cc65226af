import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { checkPrivateFile } from './secret-files.js';

/**
 * Reads typed fields of one section of `treeagent.config.json`, each error naming the file, the
 * field's path (e.g. `helpDesk.teams.billing.policy`) and how to write it.
 */
export class ConfigFields {
  constructor(
    /** The configuration file (errors name it; secret files are relative to its folder). */
    readonly file: string,
    /** The path of this section, e.g. `helpDesk.escalation`. */
    readonly path: string,
    readonly value: Record<string, unknown>,
  ) {}

  /** The section at `path` of the parsed file, or null when absent; an error when it is not an object. */
  static section(file: string, parsed: Record<string, unknown>, path: string): ConfigFields | null {
    const value = parsed[path];
    if (value === undefined) return null;
    return new ConfigFields(file, '', {}).#object(path, value);
  }

  /** An error naming the field and the fix. */
  error(field: string, message: string): TreeAgentError {
    return new TreeAgentError('INVALID_INPUT', `${this.file}: "${this.#at(field)}" ${message}`);
  }

  /** Refuses fields this section does not know (a typo would otherwise be silently ignored). */
  only(known: string[]): void {
    for (const key of Object.keys(this.value))
      if (!known.includes(key)) throw this.error(key, `is not a setting here: use ${known.join(', ')}.`);
  }

  /** A sub-section, or null when absent. */
  object(field: string): ConfigFields | null {
    const value = this.value[field];
    return value === undefined ? null : this.#object(this.#at(field), value);
  }

  string(field: string, example: string): string | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '')
      throw this.error(field, `must be a text, e.g. ${JSON.stringify(example)}.`);
    return value.trim();
  }

  requiredString(field: string, example: string): string {
    const value = this.string(field, example);
    if (value === undefined) throw this.error(field, `is missing: write e.g. ${JSON.stringify(example)}.`);
    return value;
  }

  /** An `http:` or `https:` URL. */
  url(field: string, example: string, required = false): string | undefined {
    const value = required ? this.requiredString(field, example) : this.string(field, example);
    if (value === undefined) return undefined;
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {}
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      throw this.error(field, `is not an http(s) URL: write e.g. ${JSON.stringify(example)}.`);
    return value;
  }

  /** A whole number of at least `min`. */
  integer(field: string, min: number, example: number): number | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
      throw this.error(field, `must be a whole number of at least ${min}, e.g. ${example}.`);
    return value;
  }

  boolean(field: string): boolean | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw this.error(field, 'must be true or false.');
    return value;
  }

  strings(field: string, example: string[]): string[] | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === ''))
      throw this.error(field, `must be a list of texts, e.g. ${JSON.stringify(example)}.`);
    return value.map((item: string) => item.trim());
  }

  /**
   * A secret of this section, never written in the file: `<field>Env` names an environment variable
   * that holds it, or `<field>File` a file readable by the server's account only (chmod 600),
   * relative to the configuration file. Exactly one of them; a `<field>` in the file is refused.
   */
  secret(field: string, required: boolean): string | undefined {
    const env = `${field}Env`;
    const file = `${field}File`;
    const fix = `write "${env}": "SOME_VARIABLE" (an environment variable that holds it) or "${file}": "secrets/${field.toLowerCase()}" (a file, chmod 600)`;
    if (this.value[field] !== undefined)
      throw this.error(field, `would keep a secret in the configuration file: remove it and ${fix}.`);
    const variable = this.string(env, 'TREEAGENT_SECRET');
    const path = this.string(file, 'secrets/value');
    if (variable !== undefined && path !== undefined)
      throw this.error(env, `and "${this.#at(file)}" are both set: keep one of them.`);
    if (variable !== undefined) {
      const secret = process.env[variable]?.trim();
      if (!secret)
        throw this.error(
          env,
          `names the environment variable ${variable}, which is not set or empty: export it with the secret.`,
        );
      return secret;
    }
    if (path !== undefined) {
      const absolute = resolve(this.file, '..', path);
      checkPrivateFile(absolute, `"${this.#at(file)}" of ${this.file}:`);
      const secret = readFileSync(absolute, 'utf8').trim();
      if (!secret) throw this.error(file, `names ${absolute}, which is empty: write the secret in it.`);
      return secret;
    }
    if (required) throw this.error(env, `is missing: the secret is needed; ${fix}.`);
    return undefined;
  }

  #at(field: string): string {
    return this.path ? `${this.path}.${field}` : field;
  }

  #object(path: string, value: unknown): ConfigFields {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TreeAgentError('INVALID_INPUT', `${this.file}: "${path}" must be an object ({ … }).`);
    return new ConfigFields(this.file, path, value as Record<string, unknown>);
  }
}
