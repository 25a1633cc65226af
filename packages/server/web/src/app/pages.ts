import type { ComponentType } from 'preact';
import { AnalyticsPage } from '../pages/analytics-page';
import { AuditPage } from '../pages/audit-page';
import { ChatPage } from '../pages/chat-page';
import { ConsolePage } from '../pages/console-page';
import { EditorPage } from '../pages/editor-page';
import { NotFoundPage } from '../pages/not-found-page';
import { ReviewPage } from '../pages/review-page';
import { SourcesPage } from '../pages/sources-page';
import { TreePage } from '../pages/tree-page';
import type { PagePath } from './navigation';

/** The component of each page of `NAVIGATION` (a page missing here is a type error). */
export const PAGES: Readonly<Record<PagePath, ComponentType>> = {
  '/': ChatPage,
  '/staff/tree': TreePage,
  '/staff/editor': EditorPage,
  '/staff/console': ConsolePage,
  '/staff/analytics': AnalyticsPage,
  '/staff/review': ReviewPage,
  '/staff/sources': SourcesPage,
  '/staff/audit': AuditPage,
};

/** What any other path shows. */
export { NotFoundPage };
