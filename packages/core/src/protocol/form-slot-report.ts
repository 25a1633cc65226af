/**
 * One slot of a form of `@treeagent/components` as the form reports it after each message it reads
 * (`serverMetadata.forms[name].slots`, docs/forms.md "Debug view"): the form writes it, the web app's
 * debug view reads it. Here because both can import the core's client types, and neither the other.
 */
export interface FormSlotReport {
  name: string;
  type: string;
  required: boolean;
  value: unknown;
  display: string | null;
  parser: string | null;
  text: string | null;
  skipped: boolean;
}
