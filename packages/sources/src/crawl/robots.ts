/** The rules of a robots.txt for one user agent. */
export interface RobotsRules {
  /** Whether the path (with its query) may be fetched. */
  allows(pathAndQuery: string): boolean;
  /** `Crawl-delay`, in seconds, when the group gives one. */
  crawlDelay: number | null;
  /** `Sitemap:` lines. */
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  pattern: RegExp;
  length: number;
}

/**
 * Parses a robots.txt (RFC 9309) for `agent`: the group whose `User-agent` the agent's product
 * token contains, else the `*` group; the longest matching `Allow`/`Disallow` wins (`Allow` on a
 * tie); `*` and `$` as wildcards.
 */
export function parseRobots(text: string, agent: string): RobotsRules {
  const token = agent.split('/')[0]!.toLowerCase();
  const groups: { agents: string[]; rules: Rule[]; delay: number | null }[] = [];
  const sitemaps: string[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (field === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], delay: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if ((field === 'allow' || field === 'disallow') && value)
      current.rules.push({ allow: field === 'allow', pattern: patternOf(value), length: value.length });
    else if (field === 'crawl-delay' && Number.isFinite(Number(value))) current.delay = Number(value);
  }
  const own = groups.filter((group) => group.agents.some((name) => name !== '*' && token.includes(name)));
  const chosen = own.length ? own : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  const delay = chosen.find((group) => group.delay !== null)?.delay ?? null;
  return {
    allows(pathAndQuery: string) {
      let best: Rule | null = null;
      for (const rule of rules) {
        if (!rule.pattern.test(pathAndQuery)) continue;
        if (!best || rule.length > best.length || (rule.length === best.length && rule.allow)) best = rule;
      }
      return best ? best.allow : true;
    },
    crawlDelay: delay,
    sitemaps,
  };
}

/** Everything allowed: what a site without robots.txt (4xx) gets. */
export const ALLOW_ALL: RobotsRules = { allows: () => true, crawlDelay: null, sitemaps: [] };

function patternOf(value: string): RegExp {
  const anchored = value.endsWith('$');
  const body = (anchored ? value.slice(0, -1) : value)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}
