import { useState } from 'preact/hooks';
import { DraftArea } from '../draft-field';

/** A JSON value in a textarea: committed when it parses, an error saying so when not. */
export function JsonField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <label class="field">
      <span>{label}</span>
      <DraftArea
        rows={2}
        class="mono"
        value={value === undefined ? '' : JSON.stringify(value)}
        onCommit={(typed) => {
          const raw = typed.trim();
          try {
            onChange(raw ? JSON.parse(raw) : undefined);
            setError(null);
            return true;
          } catch (caught) {
            // Refused: the field keeps the typed text, to be fixed.
            setError(`Not JSON: ${(caught as Error).message}`);
            return false;
          }
        }}
      />
      {error ? <span class="finding is-error">{error}</span> : null}
    </label>
  );
}
