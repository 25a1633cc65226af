import { type WidgetClient, WidgetError, type WidgetFile } from './widget-client';
import { element } from './widget-dom';

/**
 * Saves a file of the conversation (fetched with the session's credentials, so not a plain link).
 * A failure goes to `failed` as a `DOWNLOAD_FAILED` error: the site's `error` event gets the
 * reason; the customer the server's words for customers, or the widget's (never "Failed to fetch").
 */
export async function downloadFile(
  client: WidgetClient,
  shadow: ShadowRoot,
  file: WidgetFile,
  failed: (error: WidgetError) => void,
): Promise<void> {
  try {
    const url = URL.createObjectURL(await client.download(file));
    const anchor = element('a', { href: url, download: file.name, hidden: '' });
    shadow.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const userMessage = error instanceof WidgetError ? error.userMessage : undefined;
    failed(new WidgetError('DOWNLOAD_FAILED', `${file.name}: ${reason}`, 0, userMessage));
  }
}
