/** File name of the recording of a conformance test: `filter: match value` → `filter-match-value.json`. */
export function recordingFileName(testName: string): string {
  const slug = testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug}.json`;
}
