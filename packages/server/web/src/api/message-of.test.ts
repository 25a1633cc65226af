import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/i18n';
import { messageOf } from './api-client';
import { ApiError } from './api-error';

const forbidden = () =>
  new ApiError(403, 'FORBIDDEN', 'Only admins add chunks: it rewrites the served tree. Ask an admin.');

describe('messageOf: an error as staff read it', () => {
  afterEach(() => setLocale('en'));

  it("in English: the server's own words (they name what to fix)", () => {
    expect(messageOf(forbidden())).toBe('Only admins add chunks: it rewrites the served tree. Ask an admin.');
  });

  it("in Italian or Spanish: what the code means in the page's language, then the server's words", () => {
    setLocale('it');
    expect(messageOf(forbidden())).toBe(
      'Il tuo ruolo non lo consente: chiedi a un amministratore. (Only admins add chunks: it rewrites the served tree. Ask an admin.)',
    );
    setLocale('es');
    expect(messageOf(new ApiError(409, 'EDIT_CONFLICT', 'The file changed on disk.'))).toBe(
      'Alguien lo cambió mientras tanto: recarga y vuelve a intentarlo. (The file changed on disk.)',
    );
  });

  it("a code the catalogs do not know, or an error that is not the API's, keeps its words", () => {
    setLocale('it');
    expect(messageOf(new ApiError(400, 'CALLBACK_TYPE_ERRORS', 'tree.callbacks.ts(3,1): …'))).toBe(
      'tree.callbacks.ts(3,1): …',
    );
    expect(messageOf(new Error('boom'))).toBe('boom');
    expect(messageOf('plain')).toBe('plain');
  });
});
