/** The embeddable widget of a deployment (docs/widget.md): who may embed it, and the identity secret. */
export interface WidgetServerOptions {
  /**
   * The origins of the sites that embed the widget (`https://shop.example.com`, scheme, host and
   * port, no path): they get CORS on the session routes (`/api/v1/sessions…`); any other origin is
   * refused with 403 `ORIGIN_NOT_ALLOWED`. `treeagent serve --widget-origin`.
   */
  origins: string[];
  /**
   * The secret the sites' backends sign user ids with (HMAC-SHA256, hex), for `identify()`: a
   * session for a `userId` from another origin needs `X-User-Signature` to match. Without it, the
   * widget's `identify()` is refused. At least 32 characters. `treeagent serve --widget-secret-file`.
   */
  identitySecret?: string;
  /**
   * The language of the widget's texts on every site (BCP 47, e.g. `it` or `it-IT`), unless a site
   * chooses one (`data-locale`, `setLocale`); without it, the page's and then the browser's.
   * `treeagent serve --widget-locale`.
   */
  locale?: string;
  /**
   * On a server that requires API keys, let the widget create and use sessions without a key (a key
   * in a web page would be public). Without it such a server refuses the widget with 403
   * `WIDGET_NOT_ALLOWED`. The other API routes keep requiring a key; a session stays private to its
   * token. `treeagent serve --widget-without-api-key`.
   */
  allowWithoutApiKey?: boolean;
}
