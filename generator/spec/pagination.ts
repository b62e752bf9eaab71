// `x-paperoffice-pagination` names the query parameters and answer fields of a limit/offset read or of a cursor
// read (`kind: cursor`), so that the client's paging holds none of them. Its shape is checked by its JSON Schema; this file also checks that each name
// is one the operation itself declares (a query parameter, a property of the JSON success answer).
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import { type SchemaCheck, schemaValidator } from "../schema-validator.js";
import { findExtensionUses } from "./extensions.js";
import { deref, flattenObject } from "./object-schema.js";
import { join } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

export const PAGINATION_KEY = "x-paperoffice-pagination";

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

/** The extension's schema check, as the build compiles it ahead. */
export function paginationSchemaCheck(): SchemaCheck {
  const schema = JSON.parse(readFileSync(new URL(`../../spec/${PAGINATION_KEY}.schema.json`, import.meta.url), "utf8")) as Json;
  return { schema, options: { allErrors: true, strict: true } };
}

let validator: ValidateFunction | undefined;

function validate(value: unknown): ValidateFunction {
  validator ??= schemaValidator(paginationSchemaCheck());
  validator(value);
  return validator;
}

/** The operation's query parameter names, path-item ones included. */
function queryParameters(document: Json, item: Json | undefined, operation: Json): Set<string> {
  const listed = [
    ...(Array.isArray(item?.parameters) ? item.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ];
  return new Set(
    listed.filter(isJson).flatMap((p) => {
      const { schema } = deref(document, p, "");
      return schema.in === "query" && typeof schema.name === "string" ? [schema.name] : [];
    }),
  );
}

/** The properties of the first JSON body among the operation's 2xx answers, with their schemas. */
function successFields(document: Json, operation: Json): ReturnType<typeof flattenObject>["properties"] | undefined {
  const responses = isJson(operation.responses) ? operation.responses : {};
  for (const [status, raw] of Object.entries(responses)) {
    if (!status.startsWith("2") || !isJson(raw)) continue;
    const { schema: response } = deref(document, raw, "");
    const content = isJson(response.content) ? response.content : {};
    const json = Object.entries(content).find(([mediaType]) => mediaType.includes("json"))?.[1];
    if (isJson(json) && isJson(json.schema)) return flattenObject(document, json.schema, "").properties;
  }
  return undefined;
}

/** One line per wrong use, each at its JSON pointer. */
export function checkPagination(document: Json): SpecProblem[] {
  const paths = isJson(document.paths) ? document.paths : {};
  return findExtensionUses(document, PAGINATION_KEY).flatMap((use): SpecProblem[] => {
    const check = validate(use.value);
    // The if/then/else that picks the offset or cursor form adds an error of its own beside the branch's.
    const errors = (check.errors ?? []).filter((e) => e.keyword !== "if");
    if (errors.length > 0) {
      return errors.map((e) => ({
        pointer: use.pointer + e.instancePath,
        message: `${PAGINATION_KEY} ${e.message ?? "is invalid"}`,
      }));
    }
    const value = use.value as Record<string, string>;
    const cursor = value.kind === "cursor";
    const item = Object.values(paths).find((i) => isJson(i) && Object.values(i).includes(use.operation)) as Json | undefined;
    const query = queryParameters(document, item, use.operation);
    const fields = successFields(document, use.operation);
    const problems: SpecProblem[] = [];
    for (const member of cursor ? (["cursor"] as const) : (["limit", "offset"] as const)) {
      if (!query.has(value[member]!))
        problems.push({ pointer: join(use.pointer, member), message: `the operation has no query parameter "${value[member]}"` });
    }
    for (const member of cursor ? (["items", "next"] as const) : (["items", "total"] as const)) {
      const name = value[member];
      if (name === undefined) continue;
      const field = fields?.get(name);
      if (field === undefined) {
        problems.push({ pointer: join(use.pointer, member), message: `the operation's JSON success answer has no property "${name}"` });
        continue;
      }
      const type = deref(document, field.schema, "").schema.type;
      const want = member === "items" ? "an array" : member === "next" ? "a string" : "a number";
      const ok =
        member === "items"
          ? type === "array"
          : member === "next"
            ? type === "string" || (Array.isArray(type) && type.includes("string"))
            : type === "number" || type === "integer";
      if (!ok) problems.push({ pointer: join(use.pointer, member), message: `property "${name}" is not ${want}` });
    }
    return problems;
  });
}
