/**
 * Whether an option the user picked (`chosen`, as the client shows it) is `stored`, an option label
 * kept redacted in the pending message (docs/privacy.md): equal, or equal once each `[detector]`
 * placeholder of `stored` stands for the value it replaced. Needed with `liveTurn`, where the client
 * is sent the label with the value and the store keeps it with the placeholder.
 *
 * @example
 * matchesStoredOption('Yes, [email]', 'Yes, mario@example.com') // true
 */
export function matchesStoredOption(stored: string, chosen: string): boolean {
  if (stored === chosen) return true;
  const parts = stored.split(/\[[A-Za-z0-9_-]+\]/);
  if (parts.length === 1) return false;
  const pattern = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\S(?:.*\\S)?');
  return new RegExp(`^${pattern}$`, 's').test(chosen);
}
