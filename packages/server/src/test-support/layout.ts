import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * Layout checks for the pages in Chromium at phone and tablet widths: nothing wider than the screen,
 * every control reachable and big enough to tap. Shared by the chat page's and the other pages'
 * browser tests.
 */

/** A box on the screen, as `getBoundingClientRect()` gives it. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
/** An element of the page, as far as the functions run in it (`evaluate`) use one. */
export interface PageElement {
  id: string;
  tagName: string;
  classList: Iterable<string>;
  className: string;
  textContent: string | null;
  clientWidth: number;
  scrollWidth: number;
  scrollLeft: number;
  scrollTop: number;
  parentElement: PageElement | null;
  getBoundingClientRect(): Box;
  contains(other: PageElement | null): boolean;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  scrollIntoView(options: { block: string; inline: string }): void;
}
// The page's globals, for the functions run in it: the type check of the repository has no DOM lib.
declare const document: {
  documentElement: PageElement;
  body: PageElement;
  querySelectorAll(selector: string): Iterable<PageElement>;
  elementFromPoint(x: number, y: number): PageElement | null;
};
declare const window: { innerWidth: number; innerHeight: number };
declare function getComputedStyle(element: PageElement): {
  overflowX: string;
  overflowY: string;
  fontSize: string;
  visibility: string;
  position: string;
};

/** The viewports the pages are checked at: a phone and a tablet (portrait). */
export const SMALL_SCREENS = [
  { width: 390, height: 844, device: 'phone' },
  { width: 768, height: 1024, device: 'tablet' },
] as const;

/**
 * A browser context as a phone or tablet user has it at `width × height`: touch, mobile viewport,
 * light scheme, reduced motion (panels that slide in are measured once they are in place).
 */
export function touchContext(
  browser: Browser,
  { width, height }: { width: number; height: number },
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width, height },
    isMobile: true,
    hasTouch: true,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
}

/**
 * Elements that stick out of the screen sideways, except inside something that clips or scrolls
 * them and itself fits (an ellipsised name, a table that scrolls); first, whether the page itself
 * scrolls sideways (`document.documentElement.scrollWidth > innerWidth`, or its `main` area).
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(
        `the page scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth} px`,
      );
    // A page's own area that scrolls sideways is the page scrolling sideways.
    for (const area of document.querySelectorAll('.app main, .app .page'))
      if (area.scrollWidth > area.clientWidth + 1)
        problems.push(
          `${area.tagName.toLowerCase()}#${area.id} scrolls sideways: ${area.scrollWidth} > ${area.clientWidth} px`,
        );
    const fits = (rect: Box) => rect.left >= -1 && rect.right <= width + 1;
    for (const element of document.querySelectorAll('.app *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || fits(rect)) continue;
      // What shows of it is cut to each ancestor that clips or scrolls: fine if one of those fits.
      let clipped = false;
      for (let clip = element.parentElement; clip && clip !== document.body; clip = clip.parentElement)
        if (getComputedStyle(clip).overflowX !== 'visible' && fits(clip.getBoundingClientRect()))
          clipped = true;
      if (clipped) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')}`;
      problems.push(`${name} spans ${Math.round(rect.left)}..${Math.round(rect.right)} px of ${width}`);
    }
    return problems.slice(0, 10);
  });
}

/** Why `locator` cannot be tapped where it is (off screen, covered, too small to touch), or null when it can. */
export async function untappable(locator: Locator, minimum = 32): Promise<string | null> {
  return locator.evaluate((node, min) => {
    const element = node as unknown as PageElement;
    const rect = element.getBoundingClientRect();
    const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? element.getAttribute('aria-label') ?? '').trim().slice(0, 30)}"`;
    if (rect.width === 0) return `${label} is not shown`;
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (rect.left < -1 || rect.right > window.innerWidth + 1 || y < 0 || y > window.innerHeight)
      return `${label} is off screen (${Math.round(rect.left)}..${Math.round(rect.right)} px)`;
    const top = document.elementFromPoint(x, y);
    if (!top || !(element === top || element.contains(top)))
      return `${label} is covered by ${top?.tagName.toLowerCase()}.${top?.className}`;
    if (rect.height < min || rect.width < min)
      return `${label} is ${Math.round(rect.width)}×${Math.round(rect.height)} px: too small to touch`;
    return null;
  }, minimum);
}

/**
 * Every control of the top bar (page links, actions) whole on screen and tappable, with nothing
 * scrolled: the bar never hides a page or an action behind a sideways scroll.
 */
export async function topBarProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  // The customer's chat page has no page links: only its actions are checked.
  const strip =
    (await page.locator('.page-nav').count()) === 0
      ? { scroll: 0, width: 0 }
      : await page.locator('.page-nav').evaluate((nav) => ({
          scroll: (nav as unknown as PageElement).scrollWidth,
          width: nav.clientWidth,
        }));
  if (strip.scroll > strip.width + 1)
    problems.push(`the page links scroll sideways: ${strip.scroll} px in ${strip.width} px`);
  for (const control of await page.locator('.topbar a[href], .topbar button').all()) {
    if (!(await control.isVisible())) continue;
    const problem = await untappable(control, 24);
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Controls of the page (buttons, links, fields, tabs) that cannot be reached: scrolled to (the page
 * scrolls up and down, a table may scroll sideways), the middle of each must be on screen and be
 * that control, not something drawn over it. Visually hidden labels and closed dialogs are skipped.
 */
export function unreachable(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const selector =
      '.app button, .app a[href], .app input:not([type=hidden]), .app select, .app textarea, .app [role=tab], .app summary';
    for (const element of document.querySelectorAll(selector)) {
      if (element.closest('[hidden], dialog:not([open]), [aria-hidden="true"]')) continue;
      // A skip link is off screen until it has the keyboard focus, by design.
      if (element.closest('.skip-link')) continue;
      const before = element.getBoundingClientRect();
      // Not shown (display: none), or visually hidden for screen readers only.
      if (before.width <= 1 || before.height <= 1) continue;
      if (getComputedStyle(element).visibility === 'hidden') continue;
      element.scrollIntoView({ block: 'center', inline: 'nearest' });
      const rect = element.getBoundingClientRect();
      // scrollIntoView also scrolls boxes that clip (overflow: hidden), which a finger cannot.
      let clippedAway = false;
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if ((style.overflowX === 'hidden' || style.overflowX === 'clip') && box.scrollLeft !== 0) {
          clippedAway = true;
          box.scrollLeft = 0;
        }
        if ((style.overflowY === 'hidden' || style.overflowY === 'clip') && box.scrollTop !== 0) {
          clippedAway = true;
          box.scrollTop = 0;
        }
      }
      const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent || element.getAttribute('aria-label') || element.getAttribute('name') || '').trim().slice(0, 30)}"`;
      if (clippedAway) {
        problems.push(`${label} is cut off by a box that does not scroll`);
        continue;
      }
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      if (x < 0 || x > window.innerWidth || y < 0 || y > window.innerHeight) {
        problems.push(`${label} is off screen at (${Math.round(x)}, ${Math.round(y)})`);
        continue;
      }
      const top = document.elementFromPoint(x, y);
      if (!top || !(element === top || element.contains(top) || top.closest('label')?.contains(element)))
        problems.push(`${label} is covered by ${top?.tagName.toLowerCase()}.${top?.className}`);
    }
    return problems.slice(0, 15);
  });
}
