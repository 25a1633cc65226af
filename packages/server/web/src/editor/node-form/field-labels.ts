import type { FieldSchema } from './schema-field-model';

/**
 * Every property name the inspector's schema-driven fields can show for a node: the node schema's
 * properties and, recursively, those of the objects they hold (through `$ref`, `oneOf` and `anyOf`).
 * Each has a label in the `editor` catalogs (`fieldLabels.<name>`), with the name as its hint.
 */
export function schemaPropertyNames(node: FieldSchema, root: { $defs?: Record<string, unknown> }): string[] {
  const names = new Set<string>();
  const seen = new Set<FieldSchema>();
  const resolve = (schema: FieldSchema): FieldSchema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
    return (root.$defs?.[ref.slice('#/$defs/'.length)] ?? {}) as FieldSchema;
  };
  const walk = (schema: FieldSchema) => {
    const resolved = resolve(schema);
    if (seen.has(resolved)) return;
    seen.add(resolved);
    for (const alternative of [
      ...((resolved.anyOf as FieldSchema[] | undefined) ?? []),
      ...((resolved.oneOf as FieldSchema[] | undefined) ?? []),
    ])
      walk(alternative);
    for (const [name, child] of Object.entries((resolved.properties ?? {}) as Record<string, FieldSchema>)) {
      names.add(name);
      walk(child);
    }
  };
  walk(node);
  return [...names];
}
