import type { ApiClient } from './api-client';

/** `GET /api/v1/operator/oidc`: whether the server offers single sign-on, and the button's label. */
export interface SingleSignOnSettings {
  enabled: boolean;
  label: string;
}

/** Whether this server signs operators in through an OpenID provider. */
export function singleSignOnSettings(api: ApiClient): Promise<SingleSignOnSettings> {
  return api.json<SingleSignOnSettings>('/api/v1/operator/oidc');
}

/** Where the browser goes to sign in (the server redirects to the provider, then back to `returnTo`). */
export function singleSignOnUrl(returnTo: string): string {
  return `/api/v1/operator/oidc/login?${new URLSearchParams({ returnTo })}`;
}
