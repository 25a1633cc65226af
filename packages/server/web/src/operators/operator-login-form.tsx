import { Icon } from '../components/icon';
import { useT } from '../i18n/use-t';

/** The login form of a staff page: login and password, and the last refusal's message. */
export function OperatorLoginForm({
  title,
  error,
  onLogin,
}: {
  /** What the form says it opens ("the operator console"). */
  title: string;
  error: string | null;
  onLogin: (login: string, password: string) => void;
}) {
  const t = useT('common');
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    onLogin(String(data.get('login') ?? ''), String(data.get('password') ?? ''));
  };
  return (
    <main class="operator-login-wrap">
      <form id="operator-login" class="operator-login" onSubmit={submit}>
        <h1>
          <Icon name="key" /> {t('gate.title')}
        </h1>
        <p class="muted">{t('gate.logInToOpen', { page: title })}</p>
        {error ? (
          <p id="operator-login-error" class="tone-error" role="alert">
            {error}
          </p>
        ) : null}
        <label for="operator-login-name">{t('gate.login')}</label>
        <input id="operator-login-name" name="login" autocomplete="username" required />
        <label for="operator-password">{t('gate.password')}</label>
        <input
          id="operator-password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button type="submit" class="primary-button">
          {t('gate.logIn')}
        </button>
      </form>
    </main>
  );
}
