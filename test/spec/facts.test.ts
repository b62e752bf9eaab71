/**
 * The facts of the interface specification, held as this test's own table (./facts.ts, written by hand from the
 * text), checked against every release description in spec/releases. Each fact is its own case; a wrong description
 * fails with the fact's name and the JSON pointer of the place that contradicts it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedDescription, loadDescription } from "../../generator/spec/load.js";
import { deref } from "../../generator/spec/object-schema.js";
import { join, pointer, resolvePointer } from "../../generator/spec/pointer.js";
import { currentRelease, listReleases, releaseFile } from "../support/service-releases.js";
import * as F from "./facts.js";
import {
  alternatives,
  allowedOf,
  at,
  child,
  flat,
  isSchema,
  itemsOf,
  keyword,
  type Located,
  mapValuesOf,
  parts,
  propertiesOf,
  requiredOf,
  type Schema,
  typesOf,
  where,
} from "./schema-view.js";

// ---------------------------------------------------------------- the machinery of a fact

interface Finding {
  readonly pointer: string;
  readonly message: string;
}

interface Fact {
  readonly name: string;
  /** The first release this fact holds for; absent: every release. */
  readonly since?: string;
  /** The fact says something is absent, so an empty description holds it. */
  readonly absence?: true;
  readonly check: (document: Schema, release: string) => Finding[];
}

function format(fact: Fact, findings: readonly Finding[]): string[] {
  return findings.map((f) => `fact "${fact.name}" is contradicted at ${f.pointer || "/"}: ${f.message}`);
}

/** Collects findings; `fail` returns false so checks can stop early with `return`. */
class Report {
  readonly findings: Finding[] = [];
  fail(pointerAt: string, message: string): false {
    this.findings.push({ pointer: pointerAt, message });
    return false;
  }
}

const show = (value: unknown): string => JSON.stringify(value);
const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean => {
  const x = new Set(a.map(String));
  const y = new Set(b.map(String));
  return x.size === y.size && [...x].every((v) => y.has(v));
};
const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------- finding things in a description

const methodLabel = (path: string, method: string): string => `${method.toUpperCase()} ${path}`;

function operation(document: Schema, r: Report, path: string, method: string): Located | undefined {
  const found = at(document, pointer("paths", path, method));
  if (!found) r.fail(pointer("paths", path), `no ${method.toUpperCase()} operation`);
  return found;
}

function response(document: Schema, r: Report, op: Located, status: string, quiet = false): Located | undefined {
  const found = child(document, op, "responses", status);
  if (!found && !quiet) r.fail(join(op.pointer, "responses"), `no ${status} response`);
  return found;
}

/** The alternatives of a response's JSON body. */
function jsonBodies(document: Schema, r: Report, res: Located): Located[] {
  const media = child(document, res, "content", "application/json");
  const schema = media?.schema.schema;
  if (!media || !isSchema(schema)) {
    r.fail(res.pointer, "no application/json body");
    return [];
  }
  return alternatives(document, schema, join(media.pointer, "schema"));
}

function parameters(document: Schema, op: Located): Map<string, Located> {
  const found = new Map<string, Located>();
  const item = op.pointer.split("/").slice(0, -1).join("/");
  for (const owner of [at(document, item), op]) {
    const list = owner?.schema.parameters;
    if (!Array.isArray(list)) continue;
    list.forEach((p, i) => {
      if (!isSchema(p)) return;
      const param = deref(document, p, join(owner?.pointer ?? "", "parameters", i));
      found.set(`${String(param.schema.in)}:${String(param.schema.name).toLowerCase()}`, param);
    });
  }
  return found;
}

function paramSchema(document: Schema, param: Located): Located[] {
  const schema = param.schema.schema;
  return isSchema(schema) ? parts(document, schema, join(param.pointer, "schema")) : [];
}

function extension(document: Schema, r: Report): Located | undefined {
  const op = operation(document, r, F.JOB_ADD, "post");
  const ext = op && child(document, op, F.VARIANTS_EXTENSION);
  if (op && !ext) r.fail(op.pointer, `no ${F.VARIANTS_EXTENSION}`);
  return ext;
}

function pipeline(document: Schema, r: Report, slug: string): Located | undefined {
  const ext = extension(document, r);
  const list = ext?.schema.pipelines;
  if (!ext || !Array.isArray(list)) return undefined;
  const i = list.findIndex((p) => isSchema(p) && p.slug === slug);
  if (i < 0) r.fail(join(ext.pointer, "pipelines"), `no pipeline "${slug}"`);
  return i < 0 ? undefined : child(document, ext, "pipelines", i);
}

function variant(document: Schema, r: Report, slug: string, name: string): Located | undefined {
  const p = pipeline(document, r, slug);
  const list = p?.schema.variants;
  if (!p || !Array.isArray(list)) return undefined;
  const i = list.findIndex((v) => isSchema(v) && v.name === name);
  if (i < 0) r.fail(join(p.pointer, "variants"), `no variant "${name}"`);
  return i < 0 ? undefined : child(document, p, "variants", i);
}

/** The request schema a variant points at. */
function variantRequest(document: Schema, r: Report, v: Located): Located | undefined {
  const ref = (v.schema.request as { $ref?: unknown } | undefined)?.$ref;
  const target = typeof ref === "string" ? at(document, ref.slice(1)) : undefined;
  if (!target) r.fail(join(v.pointer, "request"), `request schema ${show(ref)} does not resolve`);
  return target;
}

// ---------------------------------------------------------------- checking values against the table

function checkType(r: Report, ps: readonly Located[], type: F.FieldType | readonly F.FieldType[], document: Schema): void {
  const types = typesOf(ps);
  const media = keyword(ps, "contentMediaType")?.value;
  const format = keyword(ps, "format")?.value;
  const isFile = (qs: readonly Located[]): boolean => {
    const m = keyword(qs, "contentMediaType")?.value;
    return (
      (typesOf(qs)?.has("string") ?? false) &&
      ((typeof m === "string" && m !== "application/json") || keyword(qs, "format")?.value === "binary")
    );
  };
  const expected = Array.isArray(type) ? type : [type as F.FieldType];
  const describe = `type ${show(types ? [...types] : null)}${media ? `, contentMediaType ${show(media)}` : ""}${format ? `, format ${show(format)}` : ""}`;
  if (expected.length > 1) {
    if (!types || !sameSet([...types], expected)) r.fail(where(ps), `expected one of types ${show(expected)}, found ${describe}`);
    return;
  }
  const one = expected[0];
  switch (one) {
    case "file":
      if (!isFile(ps)) r.fail(where(ps), `expected a file part (a binary string), found ${describe}`);
      return;
    case "files": {
      const items = itemsOf(document, ps);
      if (!types?.has("array") || types.size !== 1 || !items || !isFile(items))
        r.fail(where(ps), `expected an array of file parts, found ${describe}`);
      return;
    }
    case "json":
      if (!types?.has("string") || types.size !== 1 || media !== "application/json")
        r.fail(where(ps), `expected a JSON text in a string (contentMediaType application/json), found ${describe}`);
      return;
    default:
      if (!types?.has(String(one)) || types.size !== 1) r.fail(where(ps), `expected type "${one}", found ${describe}`);
  }
}

function checkField(
  r: Report,
  document: Schema,
  ps: readonly Located[],
  field: F.Field,
  required: boolean | undefined,
  label: string,
): void {
  if (field.type !== undefined) checkType(r, ps, field.type, document);
  if (field.required !== undefined && required !== undefined && field.required !== required)
    r.fail(
      where(ps),
      `${label} must be ${field.required ? "required" : "optional"}, the description makes it ${required ? "required" : "optional"}`,
    );
  const dflt = keyword(ps, "default");
  if ("default" in field && (!dflt || !sameValue(dflt.value, field.default)))
    r.fail(dflt?.pointer ?? where(ps), `${label} must default to ${show(field.default)}, found ${dflt ? show(dflt.value) : "no default"}`);
  if (field.noDefault && dflt)
    r.fail(dflt.pointer, `${label} has no fixed default in the text (it is derived or automatic), found default ${show(dflt.value)}`);
  if (field.values) {
    const allowed = allowedOf(document, ps);
    if (!allowed) r.fail(where(ps), `${label} must allow exactly ${show(field.values)}, the description leaves it open`);
    else if (!sameSet(allowed.values, field.values))
      r.fail(allowed.pointer, `${label} must allow exactly ${show(field.values)}, found ${show(allowed.values)}`);
  }
  for (const bound of ["minimum", "maximum"] as const) {
    if (field[bound] === undefined) continue;
    const found = keyword(ps, bound);
    if (found?.value !== field[bound])
      r.fail(found?.pointer ?? where(ps), `${label} ${bound} must be ${field[bound]}, found ${show(found?.value)}`);
  }
}

function checkPattern(
  r: Report,
  ps: readonly Located[],
  test: { accepts: readonly string[]; rejects: readonly string[] },
  label: string,
): void {
  const found = keyword(ps, "pattern");
  if (!found || typeof found.value !== "string") {
    r.fail(where(ps), `${label} must declare a pattern`);
    return;
  }
  const re = new RegExp(found.value, "u");
  for (const sample of test.accepts)
    if (!re.test(sample)) r.fail(found.pointer, `${label} pattern ${found.value} must accept ${show(sample)}`);
  for (const sample of test.rejects)
    if (re.test(sample)) r.fail(found.pointer, `${label} pattern ${found.value} must reject ${show(sample)}`);
}

function checkShape(r: Report, document: Schema, ps: readonly Located[], shape: F.Shape, label: string): void {
  if (shape.type !== undefined) checkType(r, ps, shape.type, document);
  if (shape.values_of) {
    const allowed = allowedOf(document, ps);
    if (!allowed || !sameSet(allowed.values, shape.values_of))
      r.fail(
        allowed?.pointer ?? where(ps),
        `${label} must allow exactly ${show(shape.values_of)}, found ${show(allowed?.values ?? "any")}`,
      );
  }
  if (shape.pattern) checkPattern(r, ps, shape.pattern, label);
  if (shape.format !== undefined) {
    const found = keyword(ps, "format");
    if (found?.value !== shape.format)
      r.fail(found?.pointer ?? where(ps), `${label} must have format ${shape.format}, found ${show(found?.value)}`);
  }
  const props = propertiesOf(document, ps);
  if (shape.fields) {
    for (const [name, sub] of Object.entries(shape.fields)) {
      const occurrences = props.get(name);
      if (!occurrences) r.fail(where(ps), `${label} must describe field "${name}"`);
      else checkShape(r, document, occurrences, sub, `${label}.${name}`);
    }
    if (shape.exact) {
      const extra = [...props.keys()].filter((n) => !(shape.fields && n in shape.fields));
      if (extra.length > 0) r.fail(where(ps), `${label} has fields the text does not show: ${extra.join(", ")}`);
    }
  }
  if (shape.required) {
    const required = requiredOf(ps);
    const missing = shape.required.filter((n) => !required.has(n));
    if (missing.length > 0) r.fail(where(ps), `${label} must always carry ${missing.join(", ")} (required)`);
  }
  if (shape.items) {
    const items = itemsOf(document, ps);
    if (!items) r.fail(where(ps), `${label} must declare its items`);
    else checkShape(r, document, items, shape.items, `${label}[]`);
  }
  if (shape.values) {
    const values = mapValuesOf(document, ps);
    if (!values) r.fail(where(ps), `${label} must declare the type of its values (additionalProperties)`);
    else checkShape(r, document, values, shape.values, `${label}{}`);
  }
}

// ---------------------------------------------------------------- the facts

function fact(name: string, check: (document: Schema, r: Report, release: string) => void, absence = false): Fact {
  return {
    name,
    ...(absence ? { absence: true as const } : {}),
    check: (document, release) => {
      const r = new Report();
      check(document, r, release);
      // A shared schema reached from several answers is reported once.
      const seen = new Set<string>();
      return r.findings.filter((f) => !seen.has(`${f.pointer} ${f.message}`) && seen.add(`${f.pointer} ${f.message}`));
    },
  };
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

function versioningFacts(): Fact[] {
  return [
    fact("versioning: the description follows OpenAPI 3.1", (d, r) => {
      if (typeof d.openapi !== "string" || !d.openapi.startsWith(`${F.OPENAPI_VERSION_PREFIX}.`))
        r.fail("/openapi", `expected 3.1.x, found ${show(d.openapi)}`);
    }),
    fact("versioning: info.version is the release id R<yyyymmdd>.<hhmm> and equals the file name", (d, r, release) => {
      const version = (d.info as Schema | undefined)?.version;
      if (typeof version !== "string" || !F.RELEASE_ID_FORM.test(version))
        r.fail("/info/version", `expected R<yyyymmdd>.<hhmm>, found ${show(version)}`);
      else if (version !== release) r.fail("/info/version", `the file is ${release}.yaml but info.version is ${version}`);
    }),
    fact("versioning: every server address ends in /latest", (d, r) => {
      const servers = d.servers;
      if (!Array.isArray(servers) || servers.length === 0) r.fail("/servers", "no servers");
      else
        servers.forEach((s, i) => {
          const url = isSchema(s) ? s.url : undefined;
          if (typeof url !== "string" || !url.replace(/\/$/, "").endsWith(F.BASE_URL_SUFFIX))
            r.fail(pointer("servers", i, "url"), `expected an address ending in ${F.BASE_URL_SUFFIX}, found ${show(url)}`);
        });
    }),
    fact("authentication: every call carries Authorization: Bearer <TOKEN> (bearer security, no operation opts out)", (d, r) => {
      const schemes = at(d, "/components/securitySchemes");
      const bearer = Object.entries(schemes?.schema ?? {}).filter(
        ([, s]) => isSchema(s) && s.type === F.SECURITY.type && String(s.scheme).toLowerCase() === F.SECURITY.scheme,
      );
      if (bearer.length === 0) return r.fail("/components/securitySchemes", "no http bearer security scheme");
      const names = bearer.map(([n]) => n);
      const requires = (security: unknown): boolean =>
        Array.isArray(security) && security.length > 0 && security.every((req) => isSchema(req) && names.some((n) => n in req));
      if (!requires(d.security)) r.fail("/security", `the top-level security must require ${names.join(" or ")}`);
      for (const e of F.ENDPOINTS) {
        const op = at(d, pointer("paths", e.path, e.method));
        if (op && "security" in op.schema && !requires(op.schema.security))
          r.fail(join(op.pointer, "security"), `${methodLabel(e.path, e.method)} must not drop the bearer requirement`);
      }
      return true;
    }),
    fact(
      `versioning: the variants of POST /job/add/{pipeline} are listed under ${F.VARIANTS_EXTENSION}, selected by the path parameter pipeline`,
      (d, r) => {
        const ext = extension(d, r);
        if (!ext) return;
        const selector = ext.schema.selector as Schema | undefined;
        if (selector?.in !== "path" || selector.name !== "pipeline")
          r.fail(join(ext.pointer, "selector"), `expected the path parameter "pipeline", found ${show(selector)}`);
      },
    ),
  ];
}

function endpointFacts(): Fact[] {
  const facts: Fact[] = [];
  for (const e of F.ENDPOINTS) {
    facts.push(
      fact(
        `endpoint ${methodLabel(e.path, e.method)} is operation ${e.operationId} with path parameters [${e.pathParams.join(", ")}]`,
        (d, r) => {
          const op = operation(d, r, e.path, e.method);
          if (!op) return;
          if (op.schema.operationId !== e.operationId)
            r.fail(join(op.pointer, "operationId"), `expected ${e.operationId}, found ${show(op.schema.operationId)}`);
          const params = parameters(d, op);
          const declared = [...params.values()].filter((p) => p.schema.in === "path").map((p) => String(p.schema.name));
          if (!sameSet(declared, e.pathParams))
            r.fail(op.pointer, `path parameters must be ${show(e.pathParams)}, found ${show(declared)}`);
          for (const name of e.pathParams) {
            const p = params.get(`path:${name}`);
            if (p && p.schema.required !== true) r.fail(p.pointer, `path parameter ${name} must be required`);
            if (p) checkType(r, paramSchema(d, p), "string", d);
          }
        },
      ),
    );
  }
  facts.push(
    fact(
      "endpoints: no path or method beyond those the text shows",
      (d, r) => {
        const paths = isSchema(d.paths) ? d.paths : {};
        for (const [path, item] of Object.entries(paths)) {
          if (!isSchema(item)) continue;
          for (const method of HTTP_METHODS)
            if (method in item && !F.ENDPOINTS.some((e) => e.path === path && e.method === method))
              r.fail(pointer("paths", path, method), `${methodLabel(path, method)} is not shown in the interface specification`);
        }
      },
      true,
    ),
    fact(
      "general rule 3: HTTP DELETE is not used",
      (d, r) => {
        const paths = isSchema(d.paths) ? d.paths : {};
        for (const [path, item] of Object.entries(paths))
          if (isSchema(item) && "delete" in item) r.fail(pointer("paths", path, "delete"), "state changes use POST with an action path");
      },
      true,
    ),
    fact(
      "every operation (paths and webhooks) has a unique operationId",
      (d, r) => {
        const seen = new Map<string, string>();
        for (const root of ["paths", "webhooks"] as const) {
          const items = isSchema(d[root]) ? d[root] : {};
          for (const [key, item] of Object.entries(items)) {
            if (!isSchema(item)) continue;
            for (const method of HTTP_METHODS) {
              if (!isSchema(item[method])) continue;
              const here = pointer(root, key, method);
              const id = (item[method] as Schema).operationId;
              if (typeof id !== "string" || id === "") r.fail(here, "no operationId");
              else if (seen.has(id)) r.fail(join(here, "operationId"), `operationId ${id} is also used at ${seen.get(id)}`);
              else seen.set(id, here);
            }
          }
        }
      },
      true,
    ),
  );
  return facts;
}

/** General rules 1 and 2 on the success answers. */
function successFacts(): Fact[] {
  const facts: Fact[] = [];
  for (const e of F.ENDPOINTS) {
    const label = methodLabel(e.path, e.method);
    if (e.path === F.JOB_DOWNLOAD) {
      facts.push(
        fact(`${label}: the 200 answer is the result file (not a JSON body)`, (d, r) => {
          const op = operation(d, r, e.path, e.method);
          const res = op && response(d, r, op, "200");
          const content = res?.schema.content;
          if (!res) return;
          if (!isSchema(content) || Object.keys(content).length === 0) r.fail(res.pointer, "no content: the result file is missing");
          else if ("application/json" in content) r.fail(join(res.pointer, "content"), "the result file is not a JSON body");
        }),
      );
      continue;
    }
    facts.push(
      fact(`general rule 1: every 200 JSON answer of ${label} carries processing_time, a string`, (d, r) => {
        const op = operation(d, r, e.path, e.method);
        const res = op && response(d, r, op, "200");
        if (!res) return;
        for (const body of jsonBodies(d, r, res)) {
          const ps = parts(d, body.schema, body.pointer);
          const props = propertiesOf(d, ps);
          const time = props.get("processing_time");
          if (!time) {
            r.fail(body.pointer, "no processing_time");
            continue;
          }
          checkType(r, time, "string", d);
          if (!requiredOf(ps).has("processing_time")) r.fail(body.pointer, "processing_time must be required");
        }
      }),
      fact(`general rule 2: a success answer of ${label} carries status = success`, (d, r) => {
        const op = operation(d, r, e.path, e.method);
        const res = op && response(d, r, op, "200");
        if (!res) return;
        for (const body of jsonBodies(d, r, res)) {
          const ps = parts(d, body.schema, body.pointer);
          const status = propertiesOf(d, ps).get("status");
          const allowed = status && allowedOf(d, status);
          if (isVoiceQueued(d, ps)) continue; // queue mode answers status = queued
          if (!status) r.fail(body.pointer, "no status");
          else if (!allowed || !sameSet(allowed.values, ["success"]))
            r.fail(where(status), `status must be "success", found ${show(allowed?.values ?? "any")}`);
        }
      }),
    );
  }
  return facts;
}

function isVoiceQueued(document: Schema, ps: readonly Located[]): boolean {
  const status = propertiesOf(document, ps).get("status");
  const allowed = status && allowedOf(document, status);
  return !!allowed && sameSet(allowed.values, ["queued"]);
}

/**
 * Where the text's own answer lists leave processing_time out: the immediate job_id answer ("job_id immediately,
 * poll_url"), the voice queue-mode answer ("job_id, message, status=queued") and the polling answer ("job_status,
 * and when completed, the payload"). Everywhere else general rule 1 makes it required.
 */
function jobFacts(): Fact[] {
  const facts: Fact[] = [
    fact("job submission: the body is multipart/form-data or application/x-www-form-urlencoded, never application/json", (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      const content = op && child(d, op, "requestBody", "content");
      if (!op) return;
      if (!content) return r.fail(op.pointer, "no request body");
      const types = Object.keys(content.schema);
      if (!sameSet(types, F.JOB_ADD_MEDIA_TYPES)) r.fail(content.pointer, `expected ${show(F.JOB_ADD_MEDIA_TYPES)}, found ${show(types)}`);
      return true;
    }),
    fact(
      "job submission: finished within the hold answers 200 with status, job_id, result, processing_time (and optional _billing)",
      (d, r) => {
        const op = operation(d, r, F.JOB_ADD, "post");
        const res = op && response(d, r, op, "200");
        if (!res) return;
        const bodies = jsonBodies(d, r, res).map((b) => parts(d, b.schema, b.pointer));
        const finished = bodies.find(
          (ps) => requiredOf(ps).has("result") && !isVoiceQueued(d, ps) && !propertiesOf(d, ps).has("operation"),
        );
        if (!finished) return r.fail(res.pointer, "no 200 answer that requires result");
        const missing = F.JOB_ADD_FINISHED_REQUIRED.filter((n) => !requiredOf(finished).has(n));
        if (missing.length > 0) r.fail(where(finished), `the finished answer must require ${missing.join(", ")}`);
        if (!propertiesOf(d, finished).has("_billing")) r.fail(where(finished), "the finished answer may carry _billing");
        return true;
      },
    ),
    fact(
      "job submission: hold exceeded answers 202 (a success) with status, job_id, poll_url, max_wait_seconds, client_wait=false, message, processing_time",
      (d, r) => {
        const op = operation(d, r, F.JOB_ADD, "post");
        const res = op && response(d, r, op, "202");
        if (!res) return;
        for (const body of jsonBodies(d, r, res)) {
          const ps = parts(d, body.schema, body.pointer);
          const missing = F.JOB_ADD_HOLD_EXCEEDED_REQUIRED.filter((n) => !requiredOf(ps).has(n));
          if (missing.length > 0) r.fail(body.pointer, `the 202 answer must require ${missing.join(", ")}`);
          const props = propertiesOf(d, ps);
          const wait = props.get("client_wait");
          const allowed = wait && allowedOf(d, wait);
          if (!allowed || !sameSet(allowed.values, [false]))
            r.fail(wait ? where(wait) : body.pointer, `client_wait must be false, found ${show(allowed?.values)}`);
          const status = props.get("status");
          const ok = status && allowedOf(d, status);
          if (!ok || !sameSet(ok.values, ["success"]))
            r.fail(status ? where(status) : body.pointer, "HTTP 202 is success: status must be success");
        }
      },
    ),
    fact("job submission: client_wait=false or async_only=true answers 200 with job_id immediately and poll_url", (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      const res = op && response(d, r, op, "200");
      if (!res) return;
      const found = jsonBodies(d, r, res).some((b) => {
        const required = requiredOf(parts(d, b.schema, b.pointer));
        return F.JOB_ADD_IMMEDIATE_REQUIRED.every((n) => required.has(n)) && !required.has("result");
      });
      if (!found) r.fail(res.pointer, "no 200 answer that requires job_id and poll_url without result");
    }),
    fact("job polling: GET /job/get/{job_id} answers job_status and the payload in result or job_result", (d, r) => {
      const op = operation(d, r, F.JOB_GET, "get");
      const res = op && response(d, r, op, "200");
      if (!res) return;
      for (const body of jsonBodies(d, r, res)) {
        const ps = parts(d, body.schema, body.pointer);
        const props = propertiesOf(d, ps);
        for (const n of ["job_status", "result", "job_result"])
          if (!props.has(n)) r.fail(body.pointer, `the polling answer must describe ${n}`);
        if (!requiredOf(ps).has("job_status")) r.fail(body.pointer, "job_status must be required");
      }
    }),
  ];
  for (const [name, shape] of Object.entries(F.JOB_ENVELOPE)) {
    facts.push(
      fact(`job resource: field ${name}${shape.type ? ` (${String(shape.type)})` : ""} appears in the job answers`, (d, r) => {
        const occurrences: Located[][] = [];
        for (const [path, method, statuses] of [
          [F.JOB_ADD, "post", ["200", "202"]],
          [F.JOB_GET, "get", ["200"]],
        ] as const) {
          const op = operation(d, r, path, method);
          for (const status of statuses) {
            const res = op && response(d, r, op, status);
            if (!res) continue;
            for (const body of jsonBodies(d, r, res)) {
              const prop = propertiesOf(d, parts(d, body.schema, body.pointer)).get(name);
              if (prop) occurrences.push(prop);
            }
          }
        }
        if (occurrences.length === 0) return r.fail(pointer("paths", F.JOB_ADD), `no job answer describes ${name}`);
        for (const ps of occurrences) checkShape(r, d, ps, shape, name);
        return true;
      }),
    );
  }
  return facts;
}

function pricingFacts(): Fact[] {
  const pricing = (d: Schema, r: Report): Located | undefined => {
    const ext = extension(d, r);
    const p = ext && child(d, ext, "pricing");
    if (ext && !p) r.fail(ext.pointer, "no pricing");
    return p;
  };
  const facts: Fact[] = [
    fact(`pricing: the minimum charge of a billable call is ${F.MINIMUM_CHARGE} credits`, (d, r) => {
      const p = pricing(d, r);
      if (p && (p.schema.minimumCharge !== F.MINIMUM_CHARGE || p.schema.unit !== "credits"))
        r.fail(
          p.pointer,
          `expected minimumCharge ${F.MINIMUM_CHARGE} credits, found ${show(p.schema.minimumCharge)} ${show(p.schema.unit)}`,
        );
    }),
    fact(`pricing: the lane is chosen by ${F.LANE_FIELD}, and the base cost is stated at ${F.DEFAULT_LANE}`, (d, r) => {
      const p = pricing(d, r);
      if (p && p.schema.laneField !== F.LANE_FIELD)
        r.fail(join(p.pointer, "laneField"), `expected ${F.LANE_FIELD}, found ${show(p.schema.laneField)}`);
      if (p && p.schema.defaultLane !== F.DEFAULT_LANE)
        r.fail(join(p.pointer, "defaultLane"), `expected ${F.DEFAULT_LANE}, found ${show(p.schema.defaultLane)}`);
    }),
    fact("pricing: only the six lanes carry a multiplier", (d, r) => {
      const p = pricing(d, r);
      const m = child(d, p, "laneMultipliers");
      if (p && !m) r.fail(p.pointer, "no laneMultipliers");
      if (m && !sameSet(Object.keys(m.schema), F.PROCESSING_LANES))
        r.fail(m.pointer, `expected ${show(F.PROCESSING_LANES)}, found ${show(Object.keys(m.schema))}`);
    }),
  ];
  for (const lane of F.PROCESSING_LANES) {
    facts.push(
      fact(`pricing: lane ${lane} multiplies the base cost by ${F.LANE_MULTIPLIERS[lane]}`, (d, r) => {
        const p = pricing(d, r);
        const m = child(d, p, "laneMultipliers");
        if (p && !m) r.fail(p.pointer, "no laneMultipliers");
        if (m && m.schema[lane] !== F.LANE_MULTIPLIERS[lane])
          r.fail(join(m.pointer, lane), `expected ${F.LANE_MULTIPLIERS[lane]}, found ${show(m.schema[lane])}`);
      }),
    );
  }
  return facts;
}

function pipelineFacts(): Fact[] {
  const facts: Fact[] = [
    fact(`pipelines: exactly the five shown (${F.PIPELINES.map((p) => p.slug).join(", ")})`, (d, r) => {
      const ext = extension(d, r);
      const list = ext?.schema.pipelines;
      if (!ext) return;
      const slugs = Array.isArray(list) ? list.map((p) => (isSchema(p) ? p.slug : undefined)) : [];
      if (
        !sameSet(
          slugs,
          F.PIPELINES.map((p) => p.slug),
        )
      )
        r.fail(join(ext.pointer, "pipelines"), `found ${show(slugs)}`);
    }),
  ];
  for (const p of F.PIPELINES) {
    facts.push(
      fact(
        `pipeline ${p.slug}: the slug has the form <handler>___<command> or is a single word (no dot notation) and the path parameter accepts it`,
        (d, r) => {
          if (!/^[a-z0-9]+(?:_[a-z0-9]+)*(?:___[a-z0-9]+(?:_[a-z0-9]+)*)?$/.test(p.slug))
            r.fail("", `the table's slug ${p.slug} is malformed`);
          const op = operation(d, r, F.JOB_ADD, "post");
          const param = op && parameters(d, op).get("path:pipeline");
          if (!op) return;
          if (!param) return r.fail(op.pointer, "no path parameter pipeline");
          const pattern = keyword(paramSchema(d, param), "pattern");
          if (pattern && typeof pattern.value === "string") {
            if (!new RegExp(pattern.value, "u").test(p.slug)) r.fail(pattern.pointer, `the pattern rejects the shown slug ${p.slug}`);
          }
          return pipeline(d, r, p.slug);
        },
      ),
      fact(`pipeline ${p.slug}: after polling the finished payload is read from ${p.payloadAfterPolling}`, (d, r) => {
        const pl = pipeline(d, r, p.slug);
        if (pl && pl.schema.payloadAfterPolling !== p.payloadAfterPolling)
          r.fail(
            join(pl.pointer, "payloadAfterPolling"),
            `expected ${p.payloadAfterPolling}, found ${show(pl.schema.payloadAfterPolling)}`,
          );
      }),
      fact(`pipeline ${p.slug}: base cost ${p.baseCredits} credits at no_sla`, (d, r) => {
        const pl = pipeline(d, r, p.slug);
        if (pl && pl.schema.baseCredits !== p.baseCredits)
          r.fail(join(pl.pointer, "baseCredits"), `expected ${p.baseCredits}, found ${show(pl.schema.baseCredits)}`);
      }),
      fact(`pipeline ${p.slug}: variants are exactly ${p.variants.map((v) => v.name).join(", ")}`, (d, r) => {
        const pl = pipeline(d, r, p.slug);
        const list = pl?.schema.variants;
        if (!pl) return;
        const names = Array.isArray(list) ? list.map((v) => (isSchema(v) ? v.name : undefined)) : [];
        if (
          !sameSet(
            names,
            p.variants.map((v) => v.name),
          )
        )
          r.fail(join(pl.pointer, "variants"), `found ${show(names)}`);
      }),
    );
    for (const v of p.variants) facts.push(...variantFacts(p, v));
  }
  return facts;
}

function variantFacts(p: F.Pipeline, v: F.Variant): Fact[] {
  const id = `${p.slug}/${v.name}`;
  const facts: Fact[] = [];
  const request = (d: Schema, r: Report) => {
    const found = variant(d, r, p.slug, v.name);
    const req = found && variantRequest(d, r, found);
    return found && req ? { variant: found, request: req, parts: parts(d, req.schema, req.pointer), flat: flat(d, req) } : undefined;
  };
  if (v.discriminator) {
    const { property, value } = v.discriminator;
    facts.push(
      fact(`variant ${id}: chosen by ${property}=${value}`, (d, r) => {
        const found = request(d, r);
        if (!found) return;
        const disc = found.variant.schema.discriminator as Schema | undefined;
        if (disc?.property !== property || disc.value !== value)
          r.fail(join(found.variant.pointer, "discriminator"), `expected ${property}=${value}, found ${show(disc)}`);
        const prop = propertiesOf(d, found.parts).get(property);
        const allowed = prop && allowedOf(d, prop);
        if (!prop) r.fail(found.request.pointer, `the request does not describe ${property}`);
        else if (!allowed?.values.includes(value)) r.fail(where(prop), `${property} does not allow ${value}`);
      }),
    );
  } else {
    facts.push(
      fact(`variant ${id}: the single variant of its pipeline, chosen by no body field`, (d, r) => {
        const found = variant(d, r, p.slug, v.name);
        if (found && "discriminator" in found.schema)
          r.fail(join(found.pointer, "discriminator"), "the text shows no body field that chooses it");
      }),
    );
  }
  if (v.open) {
    facts.push(
      fact(`variant ${id}: its parameters are not shown, so it is open`, (d, r) => {
        const found = request(d, r);
        if (!found) return;
        if (found.variant.schema.open !== true) r.fail(found.variant.pointer, "the variant must be marked open");
        if (!found.flat.open) r.fail(found.request.pointer, "the request schema must allow unknown fields (additionalProperties: true)");
      }),
    );
  } else {
    facts.push(
      fact(`variant ${id}: fields are exactly ${Object.keys(v.fields).join(", ")}`, (d, r) => {
        const found = request(d, r);
        if (!found) return;
        if (found.variant.schema.open === true)
          r.fail(join(found.variant.pointer, "open"), "the text shows its parameters: it is not open");
        const names = [...found.flat.properties.keys()];
        const extra = names.filter((n) => !(n in v.fields));
        if (extra.length > 0) r.fail(found.request.pointer, `fields the text does not show: ${extra.join(", ")}`);
        if (found.flat.open) r.fail(found.request.pointer, "the request must not allow unknown fields");
      }),
    );
    for (const [name, field] of Object.entries(v.fields)) {
      const traits = [
        field.required ? "required" : "optional",
        field.type ?? "",
        field.values ? `one of ${field.values.join("|")}` : "",
        field.minimum !== undefined ? `${field.minimum}..${field.maximum}` : "",
        "default" in field ? `default ${show(field.default)}` : field.noDefault ? "no fixed default" : "",
      ].filter(Boolean);
      facts.push(
        fact(`variant ${id}: ${name} is ${traits.join(", ")}`, (d, r) => {
          const found = request(d, r);
          if (!found) return;
          const prop = propertiesOf(d, found.parts).get(name);
          if (!prop) return r.fail(found.request.pointer, `no field ${name}`);
          checkField(r, d, prop, field, found.flat.required.has(name), name);
          return true;
        }),
      );
    }
  }
  facts.push(
    fact(
      `variant ${id}: exactly-one-of groups ${v.exactlyOne.length ? v.exactlyOne.map((g) => g.join("|")).join(", ") : "none"}`,
      (d, r) => {
        const found = request(d, r);
        if (!found) return;
        const listed = Array.isArray(found.variant.schema.exactlyOne) ? (found.variant.schema.exactlyOne as string[][]) : [];
        const same = (a: readonly (readonly string[])[], b: readonly (readonly string[])[]) =>
          a.length === b.length && a.every((g) => b.some((h) => sameSet(g, h)));
        if (!same(listed, v.exactlyOne))
          r.fail(join(found.variant.pointer, "exactlyOne"), `expected ${show(v.exactlyOne)}, found ${show(listed)}`);
        if (!same(found.flat.exactlyOne, v.exactlyOne))
          r.fail(
            found.request.pointer,
            `the request schema must enforce ${show(v.exactlyOne)} with oneOf, found ${show(found.flat.exactlyOne)}`,
          );
      },
    ),
    fact(`variant ${id}: JSON-string fields ${v.jsonStrings.length ? v.jsonStrings.join(", ") : "none"}`, (d, r) => {
      const found = request(d, r);
      if (!found) return;
      const listed = Array.isArray(found.variant.schema.jsonStrings) ? (found.variant.schema.jsonStrings as string[]) : [];
      if (!sameSet(listed, v.jsonStrings))
        r.fail(join(found.variant.pointer, "jsonStrings"), `expected ${show(v.jsonStrings)}, found ${show(listed)}`);
      const op = operation(d, r, F.JOB_ADD, "post");
      const encoding = op && child(d, op, "requestBody", "content", "multipart/form-data", "encoding");
      for (const name of v.jsonStrings) {
        const prop = propertiesOf(d, found.parts).get(name);
        if (!prop) r.fail(found.request.pointer, `no field ${name}`);
        else checkType(r, prop, "json", d);
        const type = encoding && child(d, encoding, name)?.schema.contentType;
        if (type !== "application/json")
          r.fail(
            encoding?.pointer ?? op?.pointer ?? "",
            `the multipart part ${name} must be encoded as application/json, found ${show(type)}`,
          );
      }
    }),
  );
  const payload = v.payload;
  if (payload) {
    facts.push(
      fact(`variant ${id}: the payload shows ${Object.keys(payload).join(", ")}`, (d, r) => {
        const found = variant(d, r, p.slug, v.name);
        const ref = (found?.schema.payload as { $ref?: unknown } | undefined)?.$ref;
        if (!found) return;
        const target = typeof ref === "string" ? at(d, ref.slice(1)) : undefined;
        if (!target) return r.fail(join(found.pointer, "payload"), "no payload schema");
        checkShape(r, d, parts(d, target.schema, target.pointer), { fields: payload }, "payload");
        return true;
      }),
    );
  }
  return facts;
}

/** Every `_billing` a JSON answer of a shown endpoint describes. */
function billings(d: Schema, r: Report): Located[][] {
  const found: Located[][] = [];
  for (const e of F.ENDPOINTS) {
    const op = at(d, pointer("paths", e.path, e.method));
    const responses = op && child(d, op, "responses");
    if (!responses) continue;
    for (const status of Object.keys(responses.schema)) {
      const res = child(d, responses, status);
      if (!res || !child(d, res, "content", "application/json")) continue;
      for (const body of jsonBodies(d, r, res)) {
        const billing = propertiesOf(d, parts(d, body.schema, body.pointer)).get("_billing");
        if (billing) found.push(billing);
      }
    }
  }
  if (found.length === 0) r.fail("/paths", "no answer carries _billing");
  return found;
}

function billingFacts(): Fact[] {
  const fields = F.BILLING.fields ?? {};
  const facts: Fact[] = [
    fact(`_billing: has exactly the fields ${Object.keys(fields).join(", ")} wherever an answer carries it`, (d, r) => {
      for (const ps of billings(d, r))
        checkShape(
          r,
          d,
          ps,
          { type: "object", exact: true, fields: Object.fromEntries(Object.keys(fields).map((k) => [k, {}])) },
          "_billing",
        );
    }),
  ];
  for (const [name, shape] of Object.entries(fields)) {
    facts.push(
      fact(`_billing.${name}: ${describeShape(shape)}`, (d, r) => {
        for (const ps of billings(d, r)) checkShape(r, d, ps, { fields: { [name]: shape } }, "_billing");
      }),
    );
  }
  return facts;
}

function describeShape(shape: F.Shape): string {
  const inner = shape.fields
    ? `{${Object.entries(shape.fields)
        .map(([k, s]) => (s.fields ? `${k} ${describeShape(s)}` : k))
        .join(", ")}}`
    : "";
  return `${shape.type ? String(shape.type) : ""}${inner}` || "present";
}

function voiceFacts(): Fact[] {
  const members = (d: Schema, r: Report): Located[][] => {
    const op = operation(d, r, F.JOB_ADD, "post");
    const res = op && response(d, r, op, "200");
    return res ? jsonBodies(d, r, res).map((b) => parts(d, b.schema, b.pointer)) : [];
  };
  const envelope = (d: Schema, r: Report): Located[] | undefined => {
    const found = members(d, r).find((ps) => F.VOICE_ENVELOPE_FIELDS.every((n) => propertiesOf(d, ps).has(n)));
    if (!found)
      r.fail(
        pointer("paths", F.JOB_ADD, "post", "responses", "200"),
        `no 200 answer carries the voice envelope ${F.VOICE_ENVELOPE_FIELDS.join(", ")}`,
      );
    return found;
  };
  return [
    fact(`voice: the direct-mode envelope is ${F.VOICE_ENVELOPE_FIELDS.join(", ")} (and the optional _billing)`, (d, r) => {
      const ps = envelope(d, r);
      if (!ps) return;
      const extra = [...propertiesOf(d, ps).keys()].filter(
        (n) => !(F.VOICE_ENVELOPE_FIELDS as readonly string[]).includes(n) && n !== "_billing",
      );
      if (extra.length > 0) r.fail(where(ps), `fields the text does not show: ${extra.join(", ")}`);
    }),
    fact("voice: the result inside the envelope has exactly the voice result fields", (d, r) => {
      const ps = envelope(d, r);
      const result = ps && propertiesOf(d, ps).get("result");
      if (result) checkShape(r, d, result, F.VOICE_RESULT, "result");
    }),
    fact("voice: the pipeline's payload is the voice result", (d, r) => {
      const v = variant(d, r, "service_voice___tts", "default");
      const ref = (v?.schema.payload as { $ref?: unknown } | undefined)?.$ref;
      const target = typeof ref === "string" ? at(d, ref.slice(1)) : undefined;
      if (v && !target) return r.fail(join(v.pointer, "payload"), "no payload schema");
      if (target) checkShape(r, d, parts(d, target.schema, target.pointer), F.VOICE_RESULT, "payload");
      return true;
    }),
    fact(`voice: queue mode answers ${F.VOICE_QUEUED_FIELDS.join(", ")} with status = queued`, (d, r) => {
      const found = members(d, r).find((ps) => isVoiceQueued(d, ps));
      if (!found) return r.fail(pointer("paths", F.JOB_ADD, "post", "responses", "200"), "no 200 answer with status = queued");
      const missing = F.VOICE_QUEUED_FIELDS.filter((n) => !requiredOf(found).has(n));
      if (missing.length > 0) r.fail(where(found), `the queue-mode answer must require ${missing.join(", ")}`);
      return true;
    }),
    fact(`voice: the error body carries ${F.VOICE_ERROR_FIELDS.join(", ")} and no code`, (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      const res = op && response(d, r, op, "400");
      if (!res) return;
      const found = jsonBodies(d, r, res)
        .map((b) => parts(d, b.schema, b.pointer))
        .find((ps) => !propertiesOf(d, ps).has("code"));
      if (!found) return r.fail(res.pointer, "no 400 body without code (the voice error body)");
      const missing = F.VOICE_ERROR_FIELDS.filter((n) => !requiredOf(found).has(n));
      if (missing.length > 0) r.fail(where(found), `the voice error body must require ${missing.join(", ")}`);
      const status = propertiesOf(d, found).get("status");
      const allowed = status && allowedOf(d, status);
      if (!allowed || !sameSet(allowed.values, ["error"])) r.fail(where(found), "status must be error");
      return true;
    }),
  ];
}

function errorCodes(d: Schema, r: Report): Map<string, { status: unknown; pointer: string }> {
  const found = new Map<string, { status: unknown; pointer: string }>();
  const codes = at(d, "/components/schemas/ErrorCode");
  const oneOf = codes?.schema.oneOf;
  if (!codes || !Array.isArray(oneOf)) {
    r.fail("/components/schemas/ErrorCode", "no oneOf of error codes");
    return found;
  }
  oneOf.forEach((m, i) => {
    if (isSchema(m)) found.set(String(m.const), { status: m["x-http-status"], pointer: join(codes.pointer, "oneOf", i) });
  });
  return found;
}

function errorFacts(): Fact[] {
  const facts: Fact[] = [];
  for (const [code, status] of Object.entries(F.ERROR_CODES)) {
    facts.push(
      fact(`error code ${code} is answered with HTTP ${status}`, (d, r) => {
        const found = errorCodes(d, r).get(code);
        if (!found) r.fail("/components/schemas/ErrorCode/oneOf", `no const ${code}`);
        else if (found.status !== status) r.fail(join(found.pointer, "x-http-status"), `expected ${status}, found ${show(found.status)}`);
      }),
    );
  }
  facts.push(
    fact(`error codes: exactly the ${Object.keys(F.ERROR_CODES).length} codes of the error table`, (d, r) => {
      for (const [code, found] of errorCodes(d, r))
        if (!(code in F.ERROR_CODES)) r.fail(found.pointer, `${code} is not in the error table`);
    }),
    fact(`job submission answers 400 with ${F.JOB_ADD_400_CODES.join(" or ")}`, (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      const res = op && response(d, r, op, "400");
      if (!res) return;
      const codes = jsonBodies(d, r, res).flatMap((b) => {
        const code = propertiesOf(d, parts(d, b.schema, b.pointer)).get("code");
        return code ? (allowedOf(d, code)?.values ?? ["<any>"]) : [];
      });
      if (!sameSet(codes, F.JOB_ADD_400_CODES)) r.fail(res.pointer, `expected codes ${show(F.JOB_ADD_400_CODES)}, found ${show(codes)}`);
    }),
    fact(`job submission answers 403 ${F.JOB_ADD_403_CODES_INCLUDE.join(", ")} for the free tier on a paid-only job`, (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      const res = op && response(d, r, op, "403");
      if (!res) return;
      const codes = jsonBodies(d, r, res).flatMap((b) => {
        const code = propertiesOf(d, parts(d, b.schema, b.pointer)).get("code");
        return code ? (allowedOf(d, code)?.values ?? []) : [];
      });
      for (const c of F.JOB_ADD_403_CODES_INCLUDE) if (!codes.includes(c)) r.fail(res.pointer, `${c} is missing from ${show(codes)}`);
    }),
    fact("job submission can answer 429 (rate limit, full queue)", (d, r) => {
      const op = operation(d, r, F.JOB_ADD, "post");
      if (op) response(d, r, op, "429");
    }),
  );
  for (const e of F.ENDPOINTS) {
    const label = methodLabel(e.path, e.method);
    facts.push(
      fact(
        `errors of ${label}: each body is status=error, code, message, processing_time, and each code is answered at its own HTTP status`,
        (d, r) => {
          const op = operation(d, r, e.path, e.method);
          const responses = op && child(d, op, "responses");
          if (!responses) return;
          for (const status of Object.keys(responses.schema).filter((s) => /^[45]/.test(s))) {
            const res = child(d, responses, status);
            if (!res) continue;
            for (const body of jsonBodies(d, r, res)) {
              const ps = parts(d, body.schema, body.pointer);
              const props = propertiesOf(d, ps);
              const code = props.get("code");
              if (!code) {
                // The voice pipeline's error body is the only one without a code.
                if (!(e.path === F.JOB_ADD && status === "400")) r.fail(body.pointer, "an error body must carry code");
                continue;
              }
              const missing = F.ERROR_BODY_FIELDS.filter((n) => !requiredOf(ps).has(n));
              if (missing.length > 0) r.fail(body.pointer, `an error body must require ${missing.join(", ")}`);
              const st = props.get("status");
              const stAllowed = st && allowedOf(d, st);
              if (!stAllowed || !sameSet(stAllowed.values, ["error"])) r.fail(body.pointer, "status must be error");
              const allowed = allowedOf(d, code);
              if (!allowed) r.fail(where(code), `the codes answered at ${status} must be listed`);
              else
                for (const c of allowed.values) {
                  const expected = F.ERROR_CODES[String(c)];
                  if (expected === undefined) r.fail(allowed.pointer, `${String(c)} is not in the error table`);
                  else if (String(expected) !== status)
                    r.fail(allowed.pointer, `${String(c)} is answered with HTTP ${expected}, not ${status}`);
                }
            }
          }
        },
      ),
      fact(`errors of ${label}: a 429 answer carries the Retry-After header`, (d, r) => {
        const op = operation(d, r, e.path, e.method);
        const res = op && response(d, r, op, "429", true);
        if (res && !child(d, res, "headers", F.RETRY_AFTER)) r.fail(res.pointer, `no ${F.RETRY_AFTER} header`);
      }),
    );
  }
  return facts;
}

function documentFacts(): Fact[] {
  return Object.entries(F.DOCUMENT_GET_QUERY).map(([name, field]) =>
    fact(`GET /documents/document-get/{pofid}: query ${name} is an optional ${field.type}`, (d, r) => {
      const op = operation(d, r, "/documents/document-get/{pofid}", "get");
      const param = op && parameters(d, op).get(`query:${name}`);
      if (!op) return;
      if (!param) return r.fail(op.pointer, `no query parameter ${name}`);
      checkField(r, d, paramSchema(d, param), field, param.schema.required === true, name);
      return true;
    }),
  );
}

function analyticsFacts(): Fact[] {
  const facts: Fact[] = [];
  const bodyOf = (d: Schema, r: Report, path: string): Located[] | undefined => {
    const op = operation(d, r, path, "get");
    const res = op && response(d, r, op, "200");
    const body = res && jsonBodies(d, r, res)[0];
    return body && parts(d, body.schema, body.pointer);
  };
  for (const a of F.ANALYTICS) {
    for (const [name, field] of Object.entries(a.query)) {
      const traits = [
        field.type ? String(field.type) : "",
        field.values ? `one of ${field.values.join("|")}` : "",
        field.minimum !== undefined ? `${field.minimum}..${field.maximum}` : "",
        "default" in field ? `default ${show(field.default)}` : "",
      ].filter(Boolean);
      facts.push(
        fact(`GET ${a.path}: query ${name} is ${traits.join(", ")}`, (d, r) => {
          const op = operation(d, r, a.path, "get");
          const param = op && parameters(d, op).get(`query:${name}`);
          if (!op) return;
          if (!param) return r.fail(op.pointer, `no query parameter ${name}`);
          checkField(r, d, paramSchema(d, param), field, param.schema.required === true, name);
          return true;
        }),
      );
    }
    facts.push(
      fact(`GET ${a.path}: takes no query parameters beyond ${Object.keys(a.query).join(", ")}`, (d, r) => {
        const op = operation(d, r, a.path, "get");
        if (!op) return;
        for (const [key, p] of parameters(d, op))
          if (key.startsWith("query:") && !(String(p.schema.name) in a.query)) r.fail(p.pointer, `${String(p.schema.name)} is not shown`);
      }),
      fact(`GET ${a.path}: the answer carries the common analytics fields`, (d, r) => {
        const ps = bodyOf(d, r, a.path);
        if (ps) checkShape(r, d, ps, F.ANALYTICS_COMMON, "answer");
      }),
    );
    const shape = a.response;
    if (shape) {
      facts.push(
        fact(`GET ${a.path}: the answer carries ${describeShape(shape)}`, (d, r) => {
          const ps = bodyOf(d, r, a.path);
          if (ps) checkShape(r, d, ps, shape, "answer");
        }),
      );
    } else {
      facts.push(
        fact(`GET ${a.path}: the body shape beyond the common fields is not shown, so it is open`, (d, r) => {
          const ps = bodyOf(d, r, a.path);
          if (ps && !ps.some((p) => p.schema.additionalProperties === true || isSchema(p.schema.additionalProperties)))
            r.fail(where(ps), "the answer must allow unknown fields");
        }),
      );
    }
  }
  return facts;
}

function webhookManagementFacts(): Fact[] {
  const subscribeBody = (d: Schema, r: Report): Located[] | undefined => {
    const op = operation(d, r, "/webhooks/subscribe", "post");
    const media = op && child(d, op, "requestBody", "content", F.SUBSCRIBE_MEDIA_TYPE);
    const schema = media?.schema.schema;
    if (op && (!media || !isSchema(schema))) {
      r.fail(op.pointer, `no ${F.SUBSCRIBE_MEDIA_TYPE} body`);
      return undefined;
    }
    return media && isSchema(schema) ? parts(d, schema, join(media.pointer, "schema")) : undefined;
  };
  const facts: Fact[] = [
    fact("POST /webhooks/subscribe takes a JSON body", (d, r) => {
      const op = operation(d, r, "/webhooks/subscribe", "post");
      const content = op && child(d, op, "requestBody", "content");
      if (op && (!content || !sameSet(Object.keys(content.schema), [F.SUBSCRIBE_MEDIA_TYPE])))
        r.fail(
          content?.pointer ?? op.pointer,
          `expected only ${F.SUBSCRIBE_MEDIA_TYPE}, found ${show(Object.keys(content?.schema ?? {}))}`,
        );
    }),
    fact(`POST /webhooks/subscribe: events are event names or ${F.EVENT_WILDCARD}`, (d, r) => {
      const ps = subscribeBody(d, r);
      const events = ps && propertiesOf(d, ps).get("events");
      const items = events && itemsOf(d, events);
      if (!ps) return;
      if (!items) return r.fail(where(ps), "events must list its items");
      const allowed = allowedOf(d, items);
      if (!allowed || !sameSet(allowed.values, [...F.EVENTS, F.EVENT_WILDCARD]))
        r.fail(
          allowed?.pointer ?? where(items),
          `expected the 22 event names and ${F.EVENT_WILDCARD}, found ${show(allowed?.values ?? "any")}`,
        );
      return true;
    }),
    fact("POST /webhooks/subscribe: url accepts http and https", (d, r) => {
      const ps = subscribeBody(d, r);
      const url = ps && propertiesOf(d, ps).get("url");
      const pattern = url && keyword(url, "pattern");
      if (pattern && typeof pattern.value === "string")
        for (const sample of F.WEBHOOK_URLS_ACCEPTED)
          if (!new RegExp(pattern.value, "u").test(sample)) r.fail(pattern.pointer, `the pattern rejects ${sample}`);
    }),
  ];
  for (const [name, field] of Object.entries(F.SUBSCRIBE_BODY)) {
    const traits = [
      field.required ? "required" : "optional",
      field.type ?? "",
      field.values ? `one of ${field.values.join("|")}` : "",
      field.minimum !== undefined ? `${field.minimum}..${field.maximum}` : "",
      "default" in field ? `default ${show(field.default)}` : "",
    ].filter(Boolean);
    facts.push(
      fact(`webhook subscription: ${name} is ${traits.join(", ")}`, (d, r) => {
        const ps = subscribeBody(d, r);
        if (!ps) return;
        const prop = propertiesOf(d, ps).get(name);
        if (!prop) return r.fail(where(ps), `no field ${name}`);
        checkField(r, d, prop, field, requiredOf(ps).has(name), name);
        return true;
      }),
    );
  }
  for (const path of F.NOT_SHOWN_BODIES) {
    facts.push(
      fact(`POST ${path}: the body shape is not shown, so it is open`, (d, r) => {
        const op = operation(d, r, path, "post");
        const content = op && child(d, op, "requestBody", "content");
        if (op && !content) r.fail(op.pointer, "no request body");
        for (const [media, value] of Object.entries(content?.schema ?? {})) {
          const schema = isSchema(value) ? value.schema : undefined;
          if (!isSchema(schema)) continue;
          const ps = parts(d, schema, join(content?.pointer ?? "", media, "schema"));
          if (!ps.some((p) => p.schema.additionalProperties === true || isSchema(p.schema.additionalProperties)))
            r.fail(where(ps), "the body must allow unknown fields");
        }
      }),
    );
  }
  return facts;
}

function eventFacts(): Fact[] {
  const delivery = (d: Schema, r: Report, event: string): { op: Located; body?: Located[] } | undefined => {
    const op = at(d, pointer("webhooks", event, "post"));
    if (!op) {
      r.fail(pointer("webhooks", event), "no POST delivery");
      return undefined;
    }
    const media = child(d, op, "requestBody", "content", F.DELIVERY_MEDIA_TYPE);
    const schema = media?.schema.schema;
    if (!media || !isSchema(schema)) {
      r.fail(op.pointer, `no ${F.DELIVERY_MEDIA_TYPE} delivery body`);
      return { op };
    }
    return { op, body: parts(d, schema, join(media.pointer, "schema")) };
  };
  const facts: Fact[] = [
    fact(`events: exactly the ${F.EVENTS.length} event types are described as webhooks`, (d, r) => {
      const names = Object.keys(isSchema(d.webhooks) ? d.webhooks : {});
      const missing = F.EVENTS.filter((e) => !names.includes(e));
      const extra = names.filter((n) => !(F.EVENTS as readonly string[]).includes(n));
      if (missing.length > 0) r.fail("/webhooks", `missing ${missing.join(", ")}`);
      if (extra.length > 0) r.fail("/webhooks", `not event types of the text: ${extra.join(", ")}`);
    }),
    fact(
      "events: document.processed data is pofid, workspace_id, filename, mime_type, size_bytes, processing_result{ocr_done, classification, confidence}",
      (d, r) => {
        const body = delivery(d, r, "document.processed")?.body;
        const data = body && propertiesOf(d, body).get("data");
        if (body && !data) return r.fail(where(body), "no data");
        if (data) checkShape(r, d, data, F.DOCUMENT_PROCESSED_DATA, "data");
        return true;
      },
    ),
    fact(`events: document.deleted data carries delete_mode ${F.DELETE_MODES.join(" or ")}`, (d, r) => {
      const body = delivery(d, r, "document.deleted")?.body;
      const data = body && propertiesOf(d, body).get("data");
      if (body && !data) return r.fail(where(body), "no data");
      if (data) checkShape(r, d, data, { fields: { delete_mode: { values_of: F.DELETE_MODES } } }, "data");
      return true;
    }),
  ];
  for (const event of F.EVENTS) {
    facts.push(
      fact(
        `event ${event}: the delivery is a JSON body with event_type=${event}, event_id (32 hex), timestamp (date-time), subscription_id (integer), data`,
        (d, r) => {
          const body = delivery(d, r, event)?.body;
          if (!body) return;
          checkShape(r, d, body, F.DELIVERY_BODY, "body");
          const type = propertiesOf(d, body).get("event_type");
          const allowed = type && allowedOf(d, type);
          if (type && (!allowed || !sameSet(allowed.values, [event])))
            r.fail(allowed?.pointer ?? where(type), `event_type must be ${event}, found ${show(allowed?.values ?? "any")}`);
        },
      ),
      fact(`event ${event}: the delivery carries the headers ${F.DELIVERY_HEADERS.map((h) => h.name).join(", ")}`, (d, r) => {
        const found = delivery(d, r, event);
        if (!found) return;
        const params = parameters(d, found.op);
        for (const h of F.DELIVERY_HEADERS) {
          const p = params.get(`header:${h.name.toLowerCase()}`);
          if (!p) {
            r.fail(found.op.pointer, `no header ${h.name}`);
            continue;
          }
          if (p.schema.required !== true) r.fail(p.pointer, `${h.name} is always sent: required`);
          const ps = paramSchema(d, p);
          const allowed = allowedOf(d, ps);
          if (h.const !== undefined && (!allowed || !sameSet(allowed.values, [h.const])))
            r.fail(allowed?.pointer ?? p.pointer, `${h.name} must be ${h.const}, found ${show(allowed?.values ?? "any")}`);
          if (h.values && (!allowed || !sameSet(allowed.values, h.values)))
            r.fail(
              allowed?.pointer ?? p.pointer,
              `${h.name} must be one of the ${h.values.length} event names, found ${show(allowed?.values ?? "any")}`,
            );
          if (h.pattern) checkPattern(r, ps, h.pattern, h.name);
        }
      }),
      fact(`event ${event}: the receiver answers 2xx on success and 401 on a signature mismatch`, (d, r) => {
        const found = delivery(d, r, event);
        const responses = found && child(d, found.op, "responses");
        if (!found) return;
        const statuses = Object.keys(responses?.schema ?? {});
        if (!statuses.some((s) => /^2(\d\d|xx)$/i.test(s))) r.fail(join(found.op.pointer, "responses"), "no 2xx response");
        if (!statuses.includes("401")) r.fail(join(found.op.pointer, "responses"), "no 401 response");
      }),
    );
  }
  return facts;
}

const FACTS: readonly Fact[] = [
  ...versioningFacts(),
  ...endpointFacts(),
  ...successFacts(),
  ...jobFacts(),
  ...pricingFacts(),
  ...pipelineFacts(),
  ...billingFacts(),
  ...voiceFacts(),
  ...errorFacts(),
  ...documentFacts(),
  ...analyticsFacts(),
  ...webhookManagementFacts(),
  ...eventFacts(),
];

function factNamed(name: string): Fact {
  const found = FACTS.find((f) => f.name === name);
  if (!found) throw new Error(`no fact named "${name}"`);
  return found;
}

// ---------------------------------------------------------------- the tests

const releases = listReleases();

describe("the facts table", () => {
  it("has one case per fact, each with a unique name", () => {
    const names = FACTS.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(FACTS.length).toBeGreaterThan(250);
  });
  it("is checked against at least one release", () => {
    expect(releases.length).toBeGreaterThan(0);
  });
  // A fact that finds nothing to check must not pass: against an empty description every fact that asserts
  // something exists reports it missing.
  it.each(FACTS.filter((f) => !f.absence).map((f) => [f.name, f] as const))("does not hold vacuously: %s", (_, f) => {
    expect(f.check({}, "R00000000.0000").length, `the fact found nothing to check yet reported nothing`).toBeGreaterThan(0);
  });
});

describe.each(releases)("release %s holds the facts of the interface specification", (release) => {
  let loaded: LoadedDescription;
  beforeAll(async () => {
    loaded = await loadDescription(releaseFile(release));
  });

  it.each(FACTS.filter((f) => !f.since || f.since <= release).map((f) => [f.name, f] as const))("%s", (_, f) => {
    expect(format(f, f.check(loaded.document, release))).toEqual([]);
  });
});

describe("a description that breaks a fact fails that fact with its JSON pointer", () => {
  const release = currentRelease();
  let original: Schema;
  beforeAll(async () => {
    original = (await loadDescription(releaseFile(release))).document;
  });

  /** Where the us_tax_forms request declares the lanes: found with the same helpers, so the break follows the description. */
  const laneEnum = (d: Schema): string => {
    const r = new Report();
    const v = variant(d, r, "service_aiocr___generate", "us_tax_forms");
    const req = v && variantRequest(d, r, v);
    const lane = req && propertiesOf(d, parts(d, req.schema, req.pointer)).get("processing_lane");
    const allowed = lane && allowedOf(d, lane);
    if (!allowed) throw new Error("processing_lane has no enum to break");
    return allowed.pointer;
  };

  const cases: { name: string; fact: string; mutate: (d: Schema) => string; expect: RegExp }[] = [
    {
      name: "a lane deleted from the processing_lane enum",
      fact: "variant service_aiocr___generate/us_tax_forms: processing_lane is optional, string, one of no_sla|sla_24h|sla_12h|sla_6h|sla_1h|instant, no fixed default",
      mutate: (d) => {
        const p = laneEnum(d);
        const node = resolvePointer(d, p) as Schema;
        node.enum = (node.enum as string[]).filter((v) => v !== "instant");
        return p;
      },
      expect: /must allow exactly .*instant.*, found \["no_sla","sla_24h","sla_12h","sla_6h","sla_1h"\]/,
    },
    {
      name: "an error code moved to another HTTP status",
      fact: "error code QUEUE_LIMIT_REACHED is answered with HTTP 429",
      mutate: (d) => {
        const oneOf = (resolvePointer(d, "/components/schemas/ErrorCode") as Schema).oneOf as Schema[];
        const i = oneOf.findIndex((m) => m.const === "QUEUE_LIMIT_REACHED");
        (oneOf[i] as Schema)["x-http-status"] = 503;
        return `/components/schemas/ErrorCode/oneOf/${i}/x-http-status`;
      },
      expect: /expected 429, found 503/,
    },
    {
      name: "a 429 answer without Retry-After",
      fact: "errors of GET /job/get/{job_id}: a 429 answer carries the Retry-After header",
      mutate: (d) => {
        const res = at(d, pointer("paths", F.JOB_GET, "get", "responses", "429"));
        if (!res) throw new Error("no 429 to break");
        delete (res.schema.headers as Schema)[F.RETRY_AFTER];
        return res.pointer;
      },
      expect: /no Retry-After header/,
    },
    {
      name: "an event type removed",
      fact: `events: exactly the ${F.EVENTS.length} event types are described as webhooks`,
      mutate: (d) => {
        delete (d.webhooks as Schema)["task.overdue"];
        return "/webhooks";
      },
      expect: /missing task\.overdue/,
    },
    {
      name: "a voice default changed",
      fact: "variant service_voice___tts/default: temperature is optional, number, 0.1..1, default 0.95",
      mutate: (d) => {
        const r = new Report();
        const v = variant(d, r, "service_voice___tts", "default");
        const req = v && variantRequest(d, r, v);
        const prop = req && propertiesOf(d, parts(d, req.schema, req.pointer)).get("temperature");
        const dflt = prop && keyword(prop, "default");
        if (!dflt) throw new Error("no temperature default to break");
        const owner = resolvePointer(d, dflt.pointer.slice(0, dflt.pointer.lastIndexOf("/"))) as Schema;
        owner.default = 0.7;
        return dflt.pointer;
      },
      expect: /must default to 0\.95, found 0\.7/,
    },
    {
      name: "a release whose info.version is not its file name",
      fact: "versioning: info.version is the release id R<yyyymmdd>.<hhmm> and equals the file name",
      mutate: (d) => {
        (d.info as Schema).version = "R19990101.0000";
        return "/info/version";
      },
      expect: /info\.version is R19990101\.0000/,
    },
  ];

  it.each(cases)("$name", ({ fact: name, mutate, expect: message }) => {
    const f = factNamed(name);
    expect(f.check(original, release), "the unbroken description holds the fact").toEqual([]);
    const broken = structuredClone(original);
    const place = mutate(broken);
    const findings = f.check(broken, release);
    expect(findings.length).toBeGreaterThan(0);
    const lines = format(f, findings);
    expect(
      lines.some((l) => l.includes(`fact "${name}"`) && l.includes(`at ${place}:`) && message.test(l)),
      lines.join("\n"),
    ).toBe(true);
  });
});
