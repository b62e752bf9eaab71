// The service's conventions as the description states them: `x-paperoffice-conventions` at the root (base-path
// rule, envelope fields, token kinds, webhook names), `x-paperoffice-job` on the operations that submit, poll and download jobs,
// `x-paperoffice-billed` on charged operations, `x-idempotent` on operations that may be sent twice and
// `x-idempotency-key` on operations that take an idempotency key in a header. Each has its JSON Schema under spec/;
// this file checks every use against it and against the description.
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import { type SchemaCheck, schemaValidator } from "../schema-validator.js";
import { findExtensionUses, HTTP_METHODS } from "./extensions.js";
import { deref } from "./object-schema.js";
import { join } from "./pointer.js";
import type { SpecProblem } from "./problems.js";
import { checkSubscriptionFields, checkWebhookConventions } from "./webhook-conventions.js";

export const CONVENTIONS_KEY = "x-paperoffice-conventions";
export const JOB_KEY = "x-paperoffice-job";
export const BILLED_KEY = "x-paperoffice-billed";
export const IDEMPOTENT_KEY = "x-idempotent";
export const IDEMPOTENCY_KEY_KEY = "x-idempotency-key";

/** Headers the clients set themselves: a key in one of them would be overwritten or would break the request. */
const CLIENT_HEADERS: ReadonlySet<string> = new Set(["accept", "authorization", "content-type", "content-length", "cookie", "host"]);

type Json = Record<string, unknown>;

function loadSchema(key: string): Json {
  return JSON.parse(readFileSync(new URL(`../../spec/${key}.schema.json`, import.meta.url), "utf8")) as Json;
}

/** The options every extension's schema is checked with. */
export const EXTENSION_SCHEMA_OPTIONS = { allErrors: true, strict: true, strictRequired: false } as const;

/** The schema checks of this file's extensions, as the build compiles them ahead. */
export function conventionSchemaChecks(): SchemaCheck[] {
  return [CONVENTIONS_KEY, JOB_KEY, BILLED_KEY, IDEMPOTENT_KEY, IDEMPOTENCY_KEY_KEY].map((k) => ({
    schema: loadSchema(k),
    options: EXTENSION_SCHEMA_OPTIONS,
  }));
}

// Made on first use: a command that checks no description (an error, --help) does not pay for it.
let validators: Readonly<Record<string, ValidateFunction>> | undefined;

function validatorOf(key: string): ValidateFunction {
  if (validators === undefined) {
    const keys = [CONVENTIONS_KEY, JOB_KEY, BILLED_KEY, IDEMPOTENT_KEY, IDEMPOTENCY_KEY_KEY];
    const checks = conventionSchemaChecks();
    validators = Object.fromEntries(keys.map((k, i) => [k, schemaValidator(checks[i]!)]));
  }
  return validators[key]!;
}

/** The oneOf branch of each job role in x-paperoffice-job.schema.json, to report only the matching branch's complaints. */
const ROLE_BRANCH: Readonly<Record<string, number>> = { submit: 0, poll: 1, download: 2 };

function shapeProblems(key: string, at: string, value: unknown, errors: readonly ErrorObject[]): SpecProblem[] {
  const role = (value as { role?: unknown } | null)?.role;
  const branch = key === JOB_KEY && typeof role === "string" ? ROLE_BRANCH[role] : undefined;
  const shown = branch === undefined ? errors : errors.filter((e) => e.schemaPath.startsWith(`#/oneOf/${branch}/`));
  const lines = (shown.length > 0 ? shown : errors).map((e) => ({
    pointer: at + e.instancePath,
    message: `${key} ${e.message ?? "is invalid"}${e.params && "additionalProperty" in e.params ? ` ("${String(e.params.additionalProperty)}")` : ""}`,
  }));
  return [...new Map(lines.map((l) => [`${l.pointer} ${l.message}`, l])).values()];
}

function shapeOk(key: string, at: string, value: unknown, problems: SpecProblem[]): boolean {
  const validate = validatorOf(key);
  if (validate(value)) return true;
  problems.push(...shapeProblems(key, at, value, validate.errors ?? []));
  return false;
}

/** Every stable error code of the catalogue: a `const` with `x-http-status` in a oneOf of components/schemas. */
function catalogueCodes(document: Json): Set<string> {
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const codes = new Set<string>();
  for (const schema of Object.values(schemas)) {
    const members = schema?.oneOf;
    if (!Array.isArray(members)) continue;
    for (const m of members as Json[]) if (typeof m?.const === "string" && typeof m["x-http-status"] === "number") codes.add(m.const);
  }
  return codes;
}

/** One line per wrong use of the five extensions, each at its JSON pointer. */
export function checkConventions(document: Json): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const codes = catalogueCodes(document);
  if (CONVENTIONS_KEY in document) checkRoot(document, codes, problems);

  for (const use of findExtensionUses(document, BILLED_KEY)) shapeOk(BILLED_KEY, use.pointer, use.value, problems);
  for (const use of findExtensionUses(document, IDEMPOTENT_KEY)) {
    if (!shapeOk(IDEMPOTENT_KEY, use.pointer, use.value, problems)) continue;
    if (use.value === true && use.operation[BILLED_KEY] === true)
      problems.push({ pointer: use.pointer, message: `${IDEMPOTENT_KEY} contradicts ${BILLED_KEY} on the same operation` });
  }

  for (const use of findExtensionUses(document, IDEMPOTENCY_KEY_KEY)) {
    if (!shapeOk(IDEMPOTENCY_KEY_KEY, use.pointer, use.value, problems)) continue;
    const header = (use.value as Json).header as string;
    if (CLIENT_HEADERS.has(header.toLowerCase()))
      problems.push({ pointer: join(use.pointer, "header"), message: `${header} is a header the clients set themselves` });
  }

  const roles = new Map<string, string>();
  const pollIds = new Map<string, string>();
  const submits: { pointer: string; value: Json }[] = [];
  for (const use of findExtensionUses(document, JOB_KEY)) {
    if (!shapeOk(JOB_KEY, use.pointer, use.value, problems)) continue;
    const value = use.value as Json;
    const role = value.role as string;
    const first = roles.get(role);
    if (first !== undefined) {
      problems.push({ pointer: join(use.pointer, "role"), message: `role "${role}" is also held at ${first}` });
      continue;
    }
    roles.set(role, join(use.pointer, "role"));
    if (role === "submit") submits.push({ pointer: use.pointer, value });
    if (role === "poll" && typeof use.operation.operationId === "string") pollIds.set(use.operation.operationId, use.pointer);
    const parameter = role === "poll" ? "jobIdParameter" : role === "download" ? "tokenParameter" : undefined;
    if (parameter !== undefined)
      checkPathParameter(document, use.pointer, use.operation, value[parameter] as string | undefined, parameter, problems);
    if (role === "submit") {
      if (typeof value.selectorPattern === "string") {
        try {
          new RegExp(value.selectorPattern);
        } catch {
          problems.push({ pointer: join(use.pointer, "selectorPattern"), message: "is not a valid regular expression" });
        }
      }
      if (typeof value.selectorRefusal === "string" && !codes.has(value.selectorRefusal))
        problems.push({
          pointer: join(use.pointer, "selectorRefusal"),
          message: `error code ${value.selectorRefusal} is not in the error catalogue`,
        });
    }
  }
  for (const { pointer, value } of submits) {
    if (!pollIds.has(value.poll as string))
      problems.push({ pointer: join(pointer, "poll"), message: `no operation "${String(value.poll)}" has ${JOB_KEY} role poll` });
  }
  return problems;
}

function checkRoot(document: Json, codes: ReadonlySet<string>, problems: SpecProblem[]): void {
  const at = join("", CONVENTIONS_KEY);
  const value = document[CONVENTIONS_KEY];
  if (!shapeOk(CONVENTIONS_KEY, at, value, problems)) return;
  const conventions = value as Json;
  const suffix = (conventions.basePath as Json | undefined)?.suffix as string | undefined;
  if (suffix !== undefined) {
    const servers = Array.isArray(document.servers) ? (document.servers as Json[]) : [];
    servers.forEach((server, i) => {
      const url = String(server?.url ?? "").replace(/\/+$/, "");
      if (!url.endsWith(suffix))
        problems.push({
          pointer: join("", "servers", i, "url"),
          message: `does not end with ${suffix}, the base-path rule of ${CONVENTIONS_KEY}`,
        });
    });
  }
  const webhooks = conventions.webhooks as Json | undefined;
  if (webhooks !== undefined) problems.push(...checkWebhookConventions(document, join(at, "webhooks"), webhooks));
  const subscription = conventions.webhookSubscription as Json | undefined;
  if (subscription !== undefined) problems.push(...checkSubscriptionFields(document, join(at, "webhookSubscription"), subscription));
  const tokens = conventions.tokens as Json | undefined;
  if (tokens !== undefined) {
    const schemes = ((document.components as Json | undefined)?.securitySchemes ?? {}) as Json;
    // Any scheme that takes a token string will do (bearer, apiKey, oauth2): the kinds are read from the token.
    if (!Object.hasOwn(schemes, tokens.scheme as string))
      problems.push({ pointer: join(at, "tokens", "scheme"), message: `no security scheme "${String(tokens.scheme)}"` });
    const prefixes = new Set<string>();
    (tokens.kinds as Json[]).forEach((kind, i) => {
      if (prefixes.has(kind.prefix as string))
        problems.push({ pointer: join(at, "tokens", "kinds", i, "prefix"), message: `prefix "${String(kind.prefix)}" is listed twice` });
      prefixes.add(kind.prefix as string);
    });
    ((tokens.renewOn ?? []) as string[]).forEach((code, i) => {
      if (!codes.has(code))
        problems.push({ pointer: join(at, "tokens", "renewOn", i), message: `error code ${code} is not in the error catalogue` });
    });
  }
}

/** Names of the operation's path parameters, path-item ones included. */
export function pathParameterNames(document: Json, operation: Json): string[] {
  const item = findPathItem(document, operation);
  const listed = [...((item?.parameters ?? []) as Json[]), ...((operation.parameters ?? []) as Json[])];
  const names = listed.flatMap((p) => {
    const { schema } = deref(document, p, "");
    return schema.in === "path" && typeof schema.name === "string" ? [schema.name] : [];
  });
  return [...new Set(names)];
}

/** A named parameter must be a path parameter; an unnamed one is the operation's only path parameter. */
function checkPathParameter(
  document: Json,
  at: string,
  operation: Json,
  name: string | undefined,
  member: string,
  problems: SpecProblem[],
): void {
  const names = pathParameterNames(document, operation);
  if (name !== undefined && !names.includes(name))
    problems.push({ pointer: join(at, member), message: `the operation has no path parameter "${name}"` });
  if (name === undefined && names.length !== 1)
    problems.push({ pointer: at, message: `the operation has ${names.length} path parameters: name the one to use in ${member}` });
}

function findPathItem(document: Json, operation: Json): Json | undefined {
  const paths = (document.paths ?? {}) as Record<string, Json>;
  for (const item of Object.values(paths)) if (HTTP_METHODS.some((m) => item?.[m] === operation)) return item;
  return undefined;
}
