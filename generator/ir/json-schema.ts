import { escapeToken } from "../spec/pointer.js";
import type { FileSchema, Operation, Schema, SchemaMeta } from "./types.js";

type JsonSchema = Record<string, unknown>;

/** How references to named schemas are written (`#/components/schemas/X` in OpenAPI, `#/$defs/X` in a bundle). */
export type RefBase = "#/components/schemas/" | "#/$defs/";

function metaOf(s: SchemaMeta): JsonSchema {
  return {
    ...(s.description !== undefined && { description: s.description }),
    ...(s.default !== undefined && { default: s.default }),
    ...(s.examples !== undefined && { examples: s.examples }),
    ...(s.deprecated && { deprecated: true }),
  };
}

/** How a schema is written where a reader takes it in another shape than the description's. */
export interface JsonSchemaOptions {
  /** A file's schema (default: a string with its contentMediaType), as a reader that takes files in its own shape writes it. */
  readonly file?: (schema: FileSchema) => JsonSchema;
}

/** An IR schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). */
export function toJsonSchema(schema: Schema, refBase: RefBase = "#/components/schemas/", options: JsonSchemaOptions = {}): JsonSchema {
  const meta = metaOf(schema);
  const to = (s: Schema) => toJsonSchema(s, refBase, options);
  switch (schema.kind) {
    case "ref":
      return { $ref: `${refBase}${escapeToken(schema.name).replaceAll("%", "%25")}`, ...meta };
    case "string": {
      const { kind: _, description: _d, default: _f, examples: _e, deprecated: _p, ...rest } = schema;
      return { type: "string", ...rest, ...meta };
    }
    case "number":
    case "integer": {
      const { kind, description: _d, default: _f, examples: _e, deprecated: _p, ...rest } = schema;
      return { type: kind, ...rest, ...meta };
    }
    case "boolean":
      return { type: "boolean", ...meta };
    case "null":
      return { type: "null", ...meta };
    case "enum":
      return schema.values.length === 1 ? { const: schema.values[0], ...meta } : { enum: schema.values, ...meta };
    case "array":
      return {
        type: "array",
        items: to(schema.items),
        ...(schema.minItems !== undefined && { minItems: schema.minItems }),
        ...(schema.maxItems !== undefined && { maxItems: schema.maxItems }),
        ...meta,
      };
    case "object": {
      const required = schema.properties.filter((p) => p.required).map((p) => p.name);
      return {
        type: "object",
        ...(schema.properties.length > 0 && { properties: Object.fromEntries(schema.properties.map((p) => [p.name, to(p.schema)])) }),
        ...(required.length > 0 && { required }),
        additionalProperties:
          typeof schema.additionalProperties === "boolean" ? schema.additionalProperties : to(schema.additionalProperties),
        ...exactlyOneOf(schema.exactlyOne),
        ...meta,
      };
    }
    case "union":
      return { [schema.mode]: schema.members.map(to), ...meta };
    case "intersection":
      return { allOf: schema.members.map(to), ...meta };
    case "file":
      if (options.file !== undefined) return options.file(schema);
      return { type: "string", contentMediaType: schema.mediaType ?? "application/octet-stream", ...meta };
    case "json-text":
      return { type: "string", contentMediaType: "application/json", contentSchema: to(schema.value), ...meta };
    case "unknown":
      return { ...meta };
  }
}

function exactlyOneOf(groups: readonly (readonly string[])[] | undefined): JsonSchema {
  if (!groups || groups.length === 0) return {};
  const oneOf = (g: readonly string[]) => ({ oneOf: g.map((name) => ({ required: [name] })) });
  return groups.length === 1 ? oneOf(groups[0]!) : { allOf: groups.map(oneOf) };
}

/** The OpenAPI paths object of a list of operations, enough for type generation and request validation. */
export function toPathItems(operations: readonly Operation[]): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.id,
      ...(op.summary !== undefined && { summary: op.summary }),
      ...(op.description !== undefined && { description: op.description }),
      ...(op.deprecated && { deprecated: true }),
      ...(params.length > 0 && {
        parameters: params.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required,
          ...(p.description !== undefined && { description: p.description }),
          schema: toJsonSchema(p.schema),
        })),
      }),
      ...(op.requestBody && {
        requestBody: {
          required: op.requestBody.required,
          content: Object.fromEntries(op.requestBody.contents.map((c) => [c.mediaType, { schema: toJsonSchema(c.schema) }])),
        },
      }),
      responses: Object.fromEntries(
        op.responses.map((r) => [
          r.status,
          {
            description: r.description,
            ...(r.headers.length > 0 && {
              headers: Object.fromEntries(r.headers.map((h) => [h.name, { required: h.required, schema: toJsonSchema(h.schema) }])),
            }),
            ...(r.contents.length > 0 && {
              content: Object.fromEntries(r.contents.map((c) => [c.mediaType, { schema: toJsonSchema(c.schema) }])),
            }),
          },
        ]),
      ),
    };
  }
  return paths;
}
