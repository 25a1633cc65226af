import { TREE_DOCUMENT_SCHEMA, type TreeDocumentNode } from '@treeagent/core/client';
import type { EditorProblem } from '../../../../src/api-types';
import { useT } from '../../i18n/use-t';
import { type Patch, schemaPropertiesOf } from './node-form-model';
import { SchemaField } from './schema-field';
import { type FieldSchema, withKey } from './schema-field-model';

export const NODE_PROPERTIES = TREE_DOCUMENT_SCHEMA.$defs.node.properties as Record<string, FieldSchema>;

/**
 * The node's other properties (an llm's model, prompt, response format, tools; a query's search; the
 * root's options…), one schema-driven field each (`schemaPropertiesOf`).
 */
export function SchemaSection({
  node,
  problems,
  onChange,
}: {
  node: TreeDocumentNode;
  problems: readonly EditorProblem[];
  onChange(patch: Patch): void;
}) {
  const t = useT('editor');
  const record = node as unknown as Record<string, unknown>;
  const properties = schemaPropertiesOf(node.type, (node.callbacks ?? {}) as Record<string, string>);
  if (!properties.length) return null;
  return (
    <section class="form-section" id="schema-section">
      <h3>{t('schemaField.title', { type: node.type })}</h3>
      {properties.map((key) => (
        <SchemaField
          key={key}
          path={[key]}
          schema={NODE_PROPERTIES[key] ?? {}}
          value={record[key]}
          problems={problems}
          onChange={(value) => onChange({ [key]: value })}
        />
      ))}
    </section>
  );
}

/**
 * The properties of an object value listed by its schema, one schema-driven field each, but those
 * in `except` (edited elsewhere): an emit's `sources`, `dynamicAttachments`, `waitInteraction`.
 */
export function ObjectFields({
  path,
  schema,
  value,
  except,
  problems,
  onChange,
}: {
  path: string[];
  schema: FieldSchema;
  value: Record<string, unknown> | undefined;
  except: ReadonlySet<string>;
  problems: readonly EditorProblem[];
  onChange(value: Record<string, unknown> | undefined): void;
}) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, FieldSchema>);
  return (
    <>
      {properties
        .filter(([name]) => !except.has(name))
        .map(([name, child]) => (
          <SchemaField
            key={name}
            path={[...path, name]}
            schema={child}
            value={value?.[name]}
            problems={problems}
            onChange={(next) => onChange(withKey(value, name, next))}
          />
        ))}
    </>
  );
}
