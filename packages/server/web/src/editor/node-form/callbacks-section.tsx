import { callbackChoices, inputValue, withEntry } from './node-form-model';

/** The callbacks a node of its type supports, each picked from the module's exports. */
export function CallbacksSection({
  supported,
  callbacks,
  exported,
  hasModule,
  onCallbacks,
}: {
  supported: readonly string[];
  callbacks: Record<string, string>;
  /** The module's exported callback names. */
  exported: string[];
  hasModule: boolean;
  onCallbacks(next: Record<string, string> | undefined): void;
}) {
  return (
    <section class="form-section">
      <h3>Callbacks</h3>
      {!hasModule ? (
        <p class="note">The document names no "module": add one to pick callbacks from its exports.</p>
      ) : null}
      {supported.map((key) => (
        <label key={key} class="field field-inline">
          <span>{key}</span>
          <select
            id={`callback-${key}`}
            value={callbacks[key] ?? ''}
            onChange={(event) => onCallbacks(withEntry(callbacks, key, inputValue(event)))}
          >
            <option value="">— none —</option>
            {callbackChoices(exported, callbacks[key]).map((name) => (
              <option key={name} value={name}>
                {name}
                {exported.includes(name) ? '' : ' (not exported)'}
              </option>
            ))}
          </select>
        </label>
      ))}
    </section>
  );
}
