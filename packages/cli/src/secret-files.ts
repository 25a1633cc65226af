import { readFileSync, statSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';

/**
 * Refuses a file of secrets (operators' password hashes, API keys) that other users of the machine
 * can read, naming the flag and the fix (docs/security.md: readable by the server's account only).
 * Windows has no such mode bits: nothing to check there.
 */
export function checkPrivateFile(file: string, flag: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    throw new TreeAgentError('INVALID_INPUT', `${flag} ${file}: the file does not exist.`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${flag} ${file} can be read by other users of this machine (mode ${(mode & 0o777).toString(8)}); it holds secrets. Run: chmod 600 ${file}`,
    );
}

/** The API keys of `--api-key-file` (one per line; blank lines and `#` comments ignored). */
export function readApiKeyFile(file: string): string[] {
  checkPrivateFile(file, '--api-key-file');
  const keys = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!keys.length)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `--api-key-file ${file} holds no key: write one API key per line (at least 32 random characters each, e.g. openssl rand -hex 32).`,
    );
  return keys;
}
