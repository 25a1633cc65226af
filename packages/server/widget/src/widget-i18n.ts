import en from '../../locales/en/widget.json';

/** A text of the widget: a key of its catalogs (`packages/server/locales/<lng>/widget.json`). */
export type WidgetKey = keyof typeof en;

/**
 * The widget's catalogs, bundled into the script: every `locales/<lng>/widget.json` (a language is
 * added by adding its file), the same flat JSON files, with i18next's `{{name}}` interpolation, that
 * the server's i18next reads. A lookup of a few lines instead of i18next itself keeps the script
 * small (docs/widget.md, "Languages").
 */
const CATALOGS: Record<string, Partial<Record<WidgetKey, string>>> = Object.fromEntries(
  Object.entries(
    import.meta.glob<Record<WidgetKey, string>>('../../locales/*/widget.json', {
      eager: true,
      import: 'default',
    }),
  ).map(([path, texts]) => [path.split('/').at(-2)!.toLowerCase(), texts]),
);

/**
 * The deployment's language (the server's `widget.locale`, `treeagent serve --widget-locale`): the
 * server writes it over this placeholder when it serves the script, so it costs no request.
 */
const DEPLOYMENT_LOCALE: string = '__TREEAGENT_DEPLOYMENT_LOCALE__';

/**
 * The widget's locale: the site's choice (`data-locale`, the `locale` option; later `setLocale`),
 * then the deployment's setting, then the browser's language.
 */
export function initialLocale(site: string | undefined): string {
  const deployment = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(DEPLOYMENT_LOCALE) ? DEPLOYMENT_LOCALE : '';
  return site || deployment || navigator.language || 'en';
}

/** The catalog's language for a BCP 47 locale: `it-IT` → `it`; English when there is none. */
export function languageOf(locale: string): string {
  const lower = locale.toLowerCase();
  if (CATALOGS[lower]) return lower;
  const base = lower.split('-')[0] ?? '';
  return CATALOGS[base] ? base : 'en';
}

/** The text of `key` in `locale`, `{{name}}` replaced by `values.name`; English for a missing key. */
export function translate(
  locale: string,
  key: WidgetKey,
  values: Record<string, string | number> = {},
): string {
  const template = CATALOGS[languageOf(locale)]?.[key] ?? en[key];
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/**
 * The texts of a mounted widget in its current locale. Each text is bound to the node (and the
 * attribute) it fills, so `setLocale` rewrites them all in place: the chrome, the messages' labels,
 * their times and sizes.
 */
export class WidgetTexts {
  #bindings: { node: Element; attribute: string | null; apply: () => void }[] = [];

  constructor(public locale: string) {}

  t(key: WidgetKey, values?: Record<string, string | number>): string {
    return translate(this.locale, key, values);
  }

  /**
   * Fills `node`'s text (or `attribute`) with `text()` now, and again whenever the locale changes;
   * returns the function that fills it, to call when what `text()` reads has changed.
   */
  bind(node: Element, attribute: string | null, text: () => string): () => void {
    const apply = () => {
      if (attribute) node.setAttribute(attribute, text());
      else node.textContent = text();
    };
    this.#bindings = this.#bindings.filter(
      (binding) => !(binding.node === node && binding.attribute === attribute),
    );
    this.#bindings.push({ node, attribute, apply });
    apply();
    return apply;
  }

  /** Changes the locale and rewrites every bound text still on the page. */
  setLocale(locale: string): void {
    this.locale = locale;
    this.#bindings = this.#bindings.filter((binding) => binding.node.isConnected);
    for (const binding of this.#bindings) binding.apply();
  }

  /** A time of day in the locale (24-hour in Italian, as `Intl` formats it there). */
  time(iso: string): string {
    return new Intl.DateTimeFormat(this.locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
  }

  /** A file size in the locale's units (`1.5 kB`, `1,5 kB`). */
  bytes(size: number): string {
    const [value, unit] =
      size < 1000 ? [size, 'byte'] : size < 1e6 ? [size / 1000, 'kilobyte'] : [size / 1e6, 'megabyte'];
    return new Intl.NumberFormat(this.locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    }).format(value);
  }
}
