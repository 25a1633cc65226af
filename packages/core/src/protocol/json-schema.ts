/** A JSON schema object, as in OpenAI's `response_format.json_schema.schema`. */
export type JsonSchema = Record<string, unknown>;
