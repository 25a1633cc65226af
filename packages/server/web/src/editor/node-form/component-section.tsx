import type { TreeDocumentNode } from '@treeagent/core/client';
import { DraftInput } from '../draft-field';
import { callbackChoices, inputValue, type Patch, text, withEntry } from './node-form-model';

/**
 * A component's own settings: the component it uses by name (with the way to write it out here), and
 * its head — the head's name and its `init` callback, which initialises the component's `self`
 * (docs/concepts.md §8).
 */
export function ComponentSection(props: {
  node: TreeDocumentNode;
  head: TreeDocumentNode | null;
  callbacks: string[];
  hasModule: boolean;
  readOnly: boolean;
  canMakeExplicit: boolean;
  onMakeExplicit(): void;
  onChangeHead(patch: Patch): void;
}) {
  const { node, head } = props;
  const headCallbacks = (head?.callbacks ?? {}) as Record<string, string>;
  const init = headCallbacks.init ?? '';
  const headEditable = !props.readOnly && head !== null && typeof node.use !== 'string';
  return (
    <section class="form-section" id="component-section">
      <h3>Component</h3>
      {typeof node.use === 'string' ? (
        <p class="note">
          Uses the component “{node.use}” of the document's <code>components</code>, its nodes numbered from{' '}
          {String(node.idBase)} (idBase + local id).{' '}
          {props.canMakeExplicit ? (
            <button type="button" id="make-explicit" class="button-small" onClick={props.onMakeExplicit}>
              Make editable here
            </button>
          ) : null}
        </p>
      ) : null}
      {head ? (
        <>
          <label class="field">
            <span>Head #{head.id}: name</span>
            <DraftInput
              id="head-name"
              disabled={!headEditable}
              value={text(head.name)}
              onCommit={(typed) => props.onChangeHead({ name: typed || undefined })}
            />
          </label>
          <label class="field field-inline">
            <span title="Initialises the component's self, once per interaction that touches the component">
              head init
            </span>
            <select
              id="head-init"
              disabled={!headEditable}
              value={init}
              onChange={(event) =>
                props.onChangeHead({ callbacks: withEntry(headCallbacks, 'init', inputValue(event)) })
              }
            >
              <option value="">— none —</option>
              {callbackChoices(props.callbacks, init).map((name) => (
                <option key={name} value={name}>
                  {name}
                  {props.callbacks.includes(name) ? '' : ' (not exported)'}
                </option>
              ))}
            </select>
          </label>
          {!props.hasModule ? (
            <p class="note">
              The document names no "module": add one to pick the head's init from its exports.
            </p>
          ) : null}
        </>
      ) : (
        <p class="note">This component has no head yet: it needs one (its entry) to be valid.</p>
      )}
    </section>
  );
}
