// The `type` keyword of every schema of a description: a name the OpenAPI version knows, or a problem at its JSON
// pointer. OpenAPI 3.1's schema check takes any JSON Schema, so `type: objekt` passed it and the schema became
// unknown in every language; OpenAPI 3.0's refuses it, in words (one of the allowed values) that do not say which.
// The walk follows the places where the description holds schemas, so that data (examples, defaults, enums) and
// names (a property called `type`, a security scheme's `type`) are never taken for a schema.
import { join } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

type Json = Record<string, unknown>;

const TYPES_30 = ["array", "boolean", "integer", "number", "object", "string"] as const;
const TYPES_31 = ["array", "boolean", "integer", "null", "number", "object", "string"] as const;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The keywords holding schemas, by what their value is: one schema, a list of them, names to schemas. */
interface Keywords {
  readonly one: readonly string[];
  readonly list: readonly string[];
  readonly map: readonly string[];
}
// OpenAPI 3.0's Schema Object knows these alone (its schema check refuses others).
const KEYWORDS_30: Keywords = { one: ["additionalProperties", "not"], list: ["allOf", "anyOf", "oneOf"], map: ["properties"] };
// JSON Schema 2020-12's applicators. `definitions` and `additionalItems` are no keywords of it: values under them are
// left alone, as the dialect leaves them (codat.io's accounting description keeps other data under `definitions`).
const KEYWORDS_31: Keywords = {
  one: [
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
  ],
  list: ["allOf", "anyOf", "oneOf", "prefixItems"],
  map: ["properties", "patternProperties", "$defs", "dependentSchemas"],
};

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every `type` of the description's schemas that is no type name of its OpenAPI version. */
export function checkTypeNames(document: Json, openapi: "3.0" | "3.1"): SpecProblem[] {
  const names: readonly string[] = openapi === "3.1" ? TYPES_31 : TYPES_30;
  const keywords = openapi === "3.1" ? KEYWORDS_31 : KEYWORDS_30;
  const problems: SpecProblem[] = [];
  // A node reached twice (a YAML alias) is checked once.
  const seen = new Set<object>();
  const known = `the type names are ${names.join(", ")}`;
  // The tokens down to the node being visited: a pointer is spelled only for a problem (MS Graph's description has
  // hundreds of thousands of schemas).
  const path: (string | number)[] = [];
  const problem = (message: string, ...tokens: (string | number)[]): void => {
    problems.push({ pointer: join("", ...path, ...tokens), message });
  };
  /** Visits node under token. */
  const under = (token: string | number, node: unknown, visit: (value: unknown) => void): void => {
    path.push(token);
    visit(node);
    path.pop();
  };
  const each = (node: unknown, visit: (value: unknown) => void): void => {
    if (isObject(node)) for (const key in node) under(key, node[key], visit);
  };
  const all = (node: unknown, visit: (value: unknown) => void): void => {
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) under(i, node[i], visit);
  };

  const typeName = (value: unknown, ...tokens: (string | number)[]): void => {
    if (typeof value !== "string") problem(`a type name (a string) expected; ${known}`, ...tokens);
    else if (!names.includes(value)) {
      const hint = value === "null" ? ' ("null" is a type of OpenAPI 3.1: in 3.0, say nullable: true)' : "";
      problem(`unknown type ${JSON.stringify(value)}; ${known}${hint}`, ...tokens);
    }
  };

  const schema = (node: unknown): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    // A 3.0 reference's other keywords are ignored; its target is checked where it is defined.
    if (openapi === "3.0" && "$ref" in node) return;
    const type = node.type;
    if (Array.isArray(type) && openapi === "3.0") {
      problem("a list of type names is OpenAPI 3.1: in 3.0, type is one name (and nullable: true)", "type");
    } else if (Array.isArray(type)) {
      for (let i = 0; i < type.length; i++) typeName(type[i], "type", i);
    } else if (type !== undefined) typeName(type, "type");
    const items = node.items;
    if (Array.isArray(items)) under("items", items, (list) => all(list, schema));
    else if (items !== undefined) under("items", items, schema);
    for (const key of keywords.one) if (node[key] !== undefined) under(key, node[key], schema);
    for (const key of keywords.list) if (node[key] !== undefined) under(key, node[key], (list) => all(list, schema));
    for (const key of keywords.map) if (node[key] !== undefined) under(key, node[key], (map) => each(map, schema));
  };

  const content = (node: unknown): void =>
    each(node, (media) => {
      if (!isObject(media)) return;
      under("schema", media.schema, schema);
      under("encoding", media.encoding, (encodings) =>
        each(encodings, (encoding) => {
          if (isObject(encoding)) under("headers", encoding.headers, (headers) => each(headers, parameter));
        }),
      );
    });
  const parameter = (node: unknown): void => {
    if (!isObject(node)) return;
    under("schema", node.schema, schema);
    under("content", node.content, content);
  };
  const response = (node: unknown): void => {
    if (!isObject(node)) return;
    under("headers", node.headers, (headers) => each(headers, parameter));
    under("content", node.content, content);
  };
  const body = (node: unknown): void => {
    if (isObject(node)) under("content", node.content, content);
  };
  const parameters = (node: unknown): void => all(node, parameter);
  const callbacks = (node: unknown): void => each(node, (callback) => each(callback, pathItem));
  const pathItem = (node: unknown): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    under("parameters", node.parameters, parameters);
    for (const method of METHODS) {
      const op = node[method];
      if (!isObject(op)) continue;
      under(method, op, () => {
        under("parameters", op.parameters, parameters);
        under("requestBody", op.requestBody, body);
        under("responses", op.responses, (responses) => each(responses, response));
        under("callbacks", op.callbacks, callbacks);
      });
    }
  };

  under("paths", document.paths, (paths) => each(paths, pathItem));
  under("webhooks", document.webhooks, (webhooks) => each(webhooks, pathItem));
  const c = isObject(document.components) ? document.components : {};
  under("components", c, () => {
    under("schemas", c.schemas, (map) => each(map, schema));
    under("parameters", c.parameters, (map) => each(map, parameter));
    under("headers", c.headers, (map) => each(map, parameter));
    under("responses", c.responses, (map) => each(map, response));
    under("requestBodies", c.requestBodies, (map) => each(map, body));
    under("pathItems", c.pathItems, (map) => each(map, pathItem));
    under("callbacks", c.callbacks, callbacks);
  });
  return problems;
}
