import { useEffect, useState } from 'preact/hooks';
import { type SingleSignOnSettings, singleSignOnSettings, singleSignOnUrl } from '../api/single-sign-on-api';
import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';
import './single-sign-on.css';

/**
 * Under the login form: the single sign-on button when the server has `operators.oidc` (a navigation to the
 * server's sign-in, which redirects to the company's provider and back to this page),
 * and why the last sign-in was refused (`?sso-error=` set by the callback).
 */
export function SingleSignOn() {
  const { api } = useApp();
  const t = useT('common');
  const [settings, setSettings] = useState<SingleSignOnSettings | null>(null);
  const refusal = new URLSearchParams(location.search).get('sso-error');

  useEffect(() => {
    let live = true;
    singleSignOnSettings(api).then(
      (answer) => live && setSettings(answer),
      () => live && setSettings(null),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (!settings?.enabled && !refusal) return null;
  // Back to this page as it is asked for (a link to an open conversation: ?session=), without the
  // refusal of an earlier sign-in.
  const query = new URLSearchParams(location.search);
  query.delete('sso-error');
  const rest = query.toString();
  const returnTo = `${location.pathname}${rest ? `?${rest}` : ''}`;
  return (
    <section class="single-sign-on" aria-label={t('gate.singleSignOn')}>
      {refusal ? (
        <p id="sso-error" class="tone-error" role="alert">
          {refusal}
        </p>
      ) : null}
      {settings?.enabled ? (
        // A full navigation (not the app's router): the server redirects to the provider.
        <button
          id="sso-login"
          type="button"
          class="primary-button"
          onClick={() => location.assign(singleSignOnUrl(returnTo))}
        >
          {settings.label}
        </button>
      ) : null}
    </section>
  );
}
