/** What a sitemap lists: pages (`<urlset>`) or other sitemaps (`<sitemapindex>`). */
export interface Sitemap {
  pages: { url: string; lastModified: string | null }[];
  sitemaps: string[];
}

/** Parses a sitemap's XML (sitemaps.org): its `<url><loc>` pages with `<lastmod>`, or the `<sitemap><loc>` of an index. */
export function parseSitemap(xml: string): Sitemap {
  const decode = (text: string) =>
    text
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&')
      .trim();
  const field = (block: string, name: string) => {
    const match = new RegExp(`<(?:[\\w-]+:)?${name}>([\\s\\S]*?)</(?:[\\w-]+:)?${name}>`).exec(block);
    return match ? decode(match[1]!) : null;
  };
  const blocks = (name: string) =>
    [...xml.matchAll(new RegExp(`<(?:[\\w-]+:)?${name}[\\s>][\\s\\S]*?</(?:[\\w-]+:)?${name}>`, 'g'))].map(
      (match) => match[0],
    );
  return {
    pages: blocks('url')
      .map((block) => ({ url: field(block, 'loc'), lastModified: field(block, 'lastmod') }))
      .filter((page): page is { url: string; lastModified: string | null } => !!page.url),
    sitemaps: blocks('sitemap')
      .map((block) => field(block, 'loc'))
      .filter((loc): loc is string => !!loc),
  };
}
