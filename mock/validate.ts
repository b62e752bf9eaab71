// Request and response validation against the IR: one ajv 2020 instance holding every named schema under
// `#/components/schemas/<name>`, form values coerced by the IR schema of their field, variants chosen by the
// pipeline's discriminators. Failures carry the field they are about, for INVALID_REQUEST messages.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { pointerTokens, toJsonSchema } from "../generator/ir/index.js";
import type { ObjectSchema, Operation, Parameter, Pipeline, Schema, Variant } from "../generator/ir/index.js";
import { type MockModel, resolveSchema } from "./model.js";
import { mergedView } from "./schema-view.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export class RequestProblem extends Error {
  readonly code: "INVALID_REQUEST" | "JOB_CONFIG_INVALID";
  readonly field: string | undefined;
  constructor(message: string, field?: string, code: "INVALID_REQUEST" | "JOB_CONFIG_INVALID" = "INVALID_REQUEST") {
    super(message);
    this.code = code;
    this.field = field;
  }

  /** One problem reporting every one of `problems` (field and code of the first), so a caller fixes all in one go. */
  static all(problems: readonly RequestProblem[]): RequestProblem {
    const messages = [...new Set(problems.map((p) => p.message))];
    const first = problems[0]!;
    return messages.length === 1 ? first : new RequestProblem(messages.join("; "), first.field, first.code);
  }
}

/** Throws every problem at once, when there is any. */
function throwAll(problems: readonly RequestProblem[]): void {
  if (problems.length > 0) throw RequestProblem.all(problems);
}

/** A file part after coercion: validated as a string, kept for the job. */
export const FILE_PLACEHOLDER_PREFIX = "file:";

export class Validator {
  readonly #ajv: Ajv2020;
  readonly #model: MockModel;
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(model: MockModel) {
    this.#model = model;
    this.#ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
    for (const named of model.ir.schemas) {
      this.#ajv.addSchema(toJsonSchema(mergedView(named.schema, model.schemas)), `#/components/schemas/${named.name}`);
    }
  }

  /** A compiled validator of an IR schema, cached by key. */
  compile(key: string, schema: Schema): ValidateFunction {
    let fn = this.#cache.get(key);
    if (!fn) {
      fn = this.#ajv.compile(toJsonSchema(mergedView(schema, this.#model.schemas)));
      this.#cache.set(key, fn);
    }
    return fn;
  }

  /** The first problem of a value against a schema, or undefined when it is valid. */
  check(key: string, schema: Schema, value: unknown): ErrorObject | undefined {
    const fn = this.compile(key, schema);
    return fn(value)
      ? undefined
      : (fn.errors?.[0] ?? { instancePath: "", schemaPath: "", keyword: "unknown", params: {}, message: "is invalid" });
  }

  /**
   * Every problem of a value against a schema. Errors inside anyOf/oneOf branches are left out when others exist:
   * they describe branches the value was not meant for.
   */
  checkAll(key: string, schema: Schema, value: unknown): ErrorObject[] {
    const fn = this.compile(key, schema);
    if (fn(value)) return [];
    const errors = fn.errors ?? [{ instancePath: "", schemaPath: "", keyword: "unknown", params: {}, message: "is invalid" }];
    const direct = errors.filter((e) => !/\/(anyOf|oneOf)\//.test(e.schemaPath));
    return direct.length > 0 ? direct : errors.slice(0, 1);
  }

  /** Validates a response body against the IR's response schema; returns the problem text or undefined. */
  checkResponse(operation: Operation, status: number, schema: Schema, body: unknown): string | undefined {
    const error = this.check(`response:${operation.id}:${status}`, schema, body);
    return error === undefined ? undefined : describe(error);
  }

  /** Path and query parameters, coerced in place; throws RequestProblem. */
  checkParameters(operation: Operation, path: Record<string, string>, query: URLSearchParams): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    const all: [Parameter, string | undefined][] = [
      ...operation.parameters.path.map((p): [Parameter, string | undefined] => [p, path[p.name]]),
      ...operation.parameters.query.map((p): [Parameter, string | undefined] => [p, query.get(p.name) ?? undefined]),
    ];
    const problems: RequestProblem[] = [];
    for (const [param, raw] of all) {
      // An empty query value is a value (`?period=` is checked as ""); only an empty path segment is missing.
      if (raw === undefined || (raw === "" && param.in === "path")) {
        if (param.required) problems.push(new RequestProblem(`${param.in} parameter "${param.name}" is required`, param.name));
        continue;
      }
      const value = coerce(this.#model, param.schema, raw, []);
      const error = this.check(`param:${operation.id}:${param.in}:${param.name}`, param.schema, value);
      if (error) problems.push(new RequestProblem(`${param.in} parameter "${param.name}" ${error.message ?? "is invalid"}`, param.name));
      values[param.name] = value;
    }
    throwAll(problems);
    return values;
  }

  /** A JSON body against the operation's schema for application/json. */
  checkJsonBody(operation: Operation, schema: Schema, body: unknown): void {
    throwAll(this.checkAll(`body:${operation.id}`, schema, body).map(problemOf));
  }

  /**
   * Chooses the variant of a job body (form fields already parsed) and validates the body against it: JSON-text
   * fields are parsed, form text is coerced to the field's type, "exactly one of" groups are checked.
   * Returns the variant and the coerced body.
   */
  checkJobBody(pipeline: Pipeline, form: Record<string, unknown>): { variant: Variant; body: Record<string, unknown> } {
    const variant = this.chooseVariant(pipeline, form);
    return { variant, body: this.checkVariant(pipeline, variant, form) };
  }

  chooseVariant(pipeline: Pipeline, form: Record<string, unknown>): Variant {
    for (const property of pipeline.discriminators) {
      const value = form[property];
      if (value === undefined) continue;
      const variant = pipeline.variants.find((v) => v.discriminator?.property === property && v.discriminator.value === value);
      if (variant) return variant;
      const allowed = pipeline.variants.filter((v) => v.discriminator?.property === property).map((v) => v.discriminator!.value);
      throw new RequestProblem(`field "${property}" must be one of ${allowed.join(", ")} in pipeline ${pipeline.slug}`, property);
    }
    const undiscriminated = pipeline.variants.filter((v) => v.discriminator === undefined);
    if (undiscriminated.length > 0) return undiscriminated[0]!;
    // No discriminator given: the server default that accepts the body, else the first default's problem.
    const defaults = pipeline.variants.filter((v) => v.discriminator?.serverDefault);
    let first: RequestProblem | undefined;
    for (const variant of defaults) {
      try {
        this.checkVariant(pipeline, variant, form);
        return variant;
      } catch (error) {
        if (!(error instanceof RequestProblem)) throw error;
        first ??= error;
      }
    }
    if (first) throw first;
    throw new RequestProblem(
      `field "${pipeline.discriminators[0] ?? "variant"}" is required in pipeline ${pipeline.slug}`,
      pipeline.discriminators[0],
    );
  }

  checkVariant(pipeline: Pipeline, variant: Variant, form: Record<string, unknown>): Record<string, unknown> {
    const problems: RequestProblem[] = [];
    const body = coerceObject(this.#model, variant.request, form, variant.jsonStrings, problems);
    for (const group of variant.exactlyOne) {
      const present = group.filter((name) => body[name] !== undefined);
      if (present.length !== 1) {
        const got = present.length === 0 ? "none was given" : `got ${present.join(" and ")}`;
        problems.push(new RequestProblem(`exactly one of ${group.map((n) => `"${n}"`).join(", ")} is required (${got})`, group[0]));
      }
    }
    // Fields that could not be decoded are reported once, not again by the schema.
    const undecodable = new Set(problems.map((p) => p.field));
    for (const error of this.checkAll(`variant:${pipeline.slug}:${variant.name}`, validationView(this.#model, variant.request), body)) {
      const problem = problemOf(error);
      if (problem.field === undefined || !undecodable.has(problem.field)) problems.push(problem);
    }
    throwAll(problems);
    return body;
  }
}

function fieldOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const base = (pointerTokens(error.instancePath) ?? []).join(".");
  const extra = (params.missingProperty ?? params.additionalProperty) as string | undefined;
  return extra === undefined ? base : base === "" ? extra : `${base}.${extra}`;
}

function describe(error: ErrorObject): string {
  const field = fieldOf(error);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `field "${field}" is required`;
  if (error.keyword === "additionalProperties") return `field "${field}" is not accepted here`;
  if (error.keyword === "enum")
    return `field "${field}" must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  return field === "" ? `body ${error.message ?? "is invalid"}` : `field "${field}" ${error.message ?? "is invalid"}`;
}

function problemOf(error: ErrorObject): RequestProblem {
  const field = fieldOf(error);
  return new RequestProblem(describe(error), field === "" ? undefined : field);
}

/** The request schema as validated after decoding: JSON-text fields become the schema of their decoded value. */
function validationView(model: MockModel, request: ObjectSchema): ObjectSchema {
  return {
    ...request,
    properties: request.properties.map((p) => {
      const resolved = resolveSchema(model, p.schema);
      return resolved.kind === "json-text" ? { ...p, schema: resolved.value } : p;
    }),
  };
}

function isFile(value: unknown): value is File {
  return typeof File !== "undefined" && value instanceof File;
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Coerces form text to the IR schema of its field: numbers, booleans, enums of numbers, arrays (a single value
 * becomes a list of one), nested objects; JSON text is parsed; File parts become `file:<name>` strings where a
 * file is expected and stay File objects (so that validation fails) elsewhere.
 */
export function coerce(model: MockModel, schema: Schema, value: unknown, problems: RequestProblem[], field = ""): unknown {
  const s = resolveSchema(model, schema);
  switch (s.kind) {
    case "number":
    case "integer":
      return typeof value === "string" && NUMBER.test(value.trim()) ? Number(value) : value;
    case "boolean":
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      return value;
    case "null":
      return value === "" || value === "null" ? null : value;
    case "enum": {
      if (typeof value !== "string" || s.values.includes(value)) return value;
      const match = s.values.find((v) => v !== null && typeof v !== "string" && String(v) === value);
      return match ?? value;
    }
    case "array": {
      const list = Array.isArray(value) ? value : [value];
      return list.map((item, i) => coerce(model, s.items, item, problems, `${field}[${i}]`));
    }
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value) && !isFile(value)
        ? coerceObject(model, s, value as Record<string, unknown>, [], problems, `${field}.`)
        : value;
    case "union":
    case "intersection": {
      if (s.kind === "union" && s.members.some((m) => resolveSchema(model, m).kind === "string") && typeof value === "string") return value;
      for (const member of s.members) {
        const next = coerce(model, member, value, problems, field);
        if (next !== value) return next;
      }
      return value;
    }
    case "file":
      if (isFile(value)) return `${FILE_PLACEHOLDER_PREFIX}${value.name}`;
      problems.push(new RequestProblem(`field "${field}" must be a file part`, field));
      return value;
    case "json-text": {
      if (typeof value !== "string") return coerce(model, s.value, value, problems, field);
      try {
        return JSON.parse(value) as unknown;
      } catch {
        problems.push(new RequestProblem(`field "${field}" must be JSON text`, field));
        return value;
      }
    }
    default:
      return value;
  }
}

function coerceObject(
  model: MockModel,
  schema: ObjectSchema,
  input: Record<string, unknown>,
  jsonStrings: readonly string[],
  problems: RequestProblem[],
  prefix = "",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const property = schema.properties.find((p) => p.name === name);
    const field = `${prefix}${name}`;
    if (jsonStrings.includes(name) && typeof value === "string") {
      try {
        out[name] = JSON.parse(value) as unknown;
      } catch {
        problems.push(new RequestProblem(`field "${field}" must be JSON text`, field));
        out[name] = value;
      }
      continue;
    }
    if (property) out[name] = coerce(model, property.schema, value, problems, field);
    else if (typeof schema.additionalProperties === "object")
      out[name] = coerce(model, schema.additionalProperties, value, problems, field);
    else out[name] = isFile(value) ? `${FILE_PLACEHOLDER_PREFIX}${value.name}` : value;
  }
  return out;
}
