import { TREE_DOCUMENT_SCHEMA } from '@treeagent/core/client';
import { useState } from 'preact/hooks';
import type { EditorProblem } from '../../../../src/api-types';
import { useT } from '../../i18n/use-t';
import { DraftArea, DraftInput } from '../draft-field';
import {
  boundsOf,
  type FieldError,
  type FieldSchema,
  kindOf,
  parseField,
  problemsAt,
  resolveSchema,
  shownValue,
  withKey,
} from './schema-field-model';

export interface SchemaFieldProps {
  /** The property's path from the node (`['query', 'chunkQty']`): its label, its id, its problems. */
  path: string[];
  schema: FieldSchema;
  value: unknown;
  /** The node's problems (the draft check's); those about this property are shown under it. */
  problems: readonly EditorProblem[];
  onChange(value: unknown): void;
}

/**
 * One property of a node edited as its JSON schema types it (`kindOf`): text, number with the
 * schema's bounds, checkbox, select, one string per line, sub-fields for an object whose properties
 * the schema lists, JSON text for any other object. A new property in the schema gets a field
 * without new UI code.
 */
export function SchemaField(props: SchemaFieldProps) {
  const { path, value, onChange } = props;
  const t = useT('editor');
  const [error, setError] = useState<FieldError | null>(null);
  const schema = resolveSchema(props.schema, TREE_DOCUMENT_SCHEMA);
  const kind = kindOf(schema, value, TREE_DOCUMENT_SCHEMA);
  const id = `field-${path.join('-')}`;
  const key = path[path.length - 1]!;
  // The property's label in the page's language, its name in the file as the hint.
  const label = (
    <>
      {t(`fieldLabels.${key}`, { defaultValue: key })} <code class="field-hint">{key}</code>
    </>
  );
  const found = problemsAt(props.problems, path);
  const shown = (
    <>
      {error ? (
        <span class="finding is-error">
          {t(`schemaField.${error.error}`, 'detail' in error ? { detail: error.detail } : {})}
        </span>
      ) : null}
      {found.map((problem) => (
        <span key={problem.message} class="finding is-error field-problem">
          {problem.message} {problem.fix}
        </span>
      ))}
    </>
  );
  const commit = (typed: string) => {
    const parsed = parseField(kind, schema, typed);
    if ('error' in parsed) {
      // Refused: the field keeps the typed text, to be fixed (`DraftInput`).
      setError(parsed);
      return false;
    }
    setError(null);
    onChange(parsed.value);
    return true;
  };

  if (kind === 'boolean')
    return (
      <div class="schema-field">
        <label class="check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange((event.target as HTMLInputElement).checked ? true : undefined)}
          />{' '}
          {label}
        </label>
        {shown}
      </div>
    );
  if (kind === 'object') {
    const object = (value ?? undefined) as Record<string, unknown> | undefined;
    const properties = schema.properties as Record<string, FieldSchema>;
    return (
      <fieldset class="schema-object" id={id}>
        <legend>{label}</legend>
        {Object.entries(properties).map(([name, child]) => (
          <SchemaField
            key={name}
            path={[...path, name]}
            schema={child}
            value={object?.[name]}
            problems={props.problems}
            onChange={(next) => onChange(withKey(object, name, next))}
          />
        ))}
        {found.map((problem) => (
          <span key={problem.message} class="finding is-error field-problem">
            {problem.message} {problem.fix}
          </span>
        ))}
      </fieldset>
    );
  }
  return (
    <label class="field schema-field" htmlFor={id}>
      <span>{label}</span>
      {kind === 'enum' ? (
        <select
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => commit((event.target as HTMLSelectElement).value)}
        >
          <option value="">{t('schemaField.unset')}</option>
          {(schema.enum as unknown[]).map((choice) => (
            <option key={String(choice)} value={String(choice)}>
              {String(choice)}
            </option>
          ))}
        </select>
      ) : kind === 'text' || kind === 'number' ? (
        <DraftInput
          id={id}
          type={kind === 'number' ? 'number' : 'text'}
          {...(kind === 'number' ? boundsOf(schema) : {})}
          value={shownValue(kind, value)}
          onCommit={commit}
        />
      ) : (
        <DraftArea
          id={id}
          rows={Math.min(8, Math.max(kind === 'list' ? 3 : 2, shownValue(kind, value).split('\n').length))}
          class={kind === 'json' ? 'mono' : undefined}
          placeholder={kind === 'list' ? t('schemaField.onePerLine') : undefined}
          value={shownValue(kind, value)}
          onCommit={commit}
        />
      )}
      {shown}
    </label>
  );
}
