import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The WCAG 2.1 A and AA violations axe-core finds on the page, as `rule: target` lines (shadow roots
 * included). axe is evaluated through the browser's debugging protocol, which the page's CSP does
 * not govern: the page under test keeps its strict policy.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe'))?.toString().includes('object'))
    await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => JSON.stringify(n.target)) })))",
  )) as { id: string; targets: string[] }[];
  return violations.flatMap((violation) => violation.targets.map((target) => `${violation.id}: ${target}`));
}
