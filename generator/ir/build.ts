import type { LoadedDescription } from "../spec/load.js";
import { BILLED_KEY, CONVENTIONS_KEY, IDEMPOTENCY_KEY_KEY, IDEMPOTENT_KEY, JOB_KEY } from "../spec/conventions.js";
import { componentSchemaName, followRefs, join } from "../spec/pointer.js";
import { type SpecProblem, SpecError } from "../spec/problems.js";
import { PAGINATION_KEY } from "../spec/pagination.js";
import { VARIANTS_KEY } from "../spec/variants.js";
import { isWebhookSubscriptionMode, WEBHOOK_SUBSCRIPTION_KEY } from "../spec/webhook-subscription.js";
import { flattenObject } from "./flatten.js";
import { mediaEncoding } from "./media.js";
import { camelCase, nameWords, pascalCase, uniqueIdentifiers } from "./names.js";
import { InlineNamer } from "./inline-names.js";
import { type SchemaSource, toSchema } from "./schema.js";
import {
  IR_VERSION,
  type Conventions,
  type SubscriptionFields,
  type WebhookConventions,
  type ErrorCode,
  type FieldEncoding,
  type Header,
  type JobRole,
  type IR,
  type MediaContent,
  type NamedSchema,
  type Operation,
  type Pagination,
  type Parameter,
  type Property,
  type ParameterStyle,
  type Pipeline,
  type Response,
  type Schema,
  type SecurityRequirement,
  type SecurityScheme,
  type Server,
  type VariantSet,
  type Webhook,
} from "./types.js";

type Raw = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/**
 * Header parameters OpenAPI says are ignored: the request body's media types, the responses' and the security
 * schemes say what goes in them, and the runtimes set them from those.
 */
const IGNORED_HEADERS: ReadonlySet<string> = new Set(["accept", "content-type", "authorization"]);
const isRaw = (v: unknown): v is Raw => v !== null && typeof v === "object" && !Array.isArray(v);
const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });

/** Follows a local $ref (components/parameters, responses, requestBodies...) to the object it names. */
function follow(document: Raw, value: unknown): Raw {
  const node = followRefs(document, value);
  return isRaw(node) ? node : {};
}

/** Builds the IR of a validated description. Pure: the description is read, never changed. */
export function buildIR(loaded: LoadedDescription): IR {
  const document = loaded.document;
  const src: SchemaSource = { document, openapi: loaded.openapi };
  const problems: SpecProblem[] = [];

  const rawSchemas = isRaw(document.components) && isRaw(document.components.schemas) ? document.components.schemas : {};
  const schemaIds = uniqueIdentifiers(Object.keys(rawSchemas), pascalCase);
  const schemas: NamedSchema[] = Object.keys(rawSchemas)
    .sort()
    .map((name) => ({
      name,
      identifier: schemaIds.get(name)!,
      schema: toSchema(rawSchemas[name], src),
    }));
  const named = new Map(schemas.map((s) => [s.name, s.schema]));

  const convertParameter = (value: unknown): Parameter => {
    const p = follow(document, value);
    const content = isRaw(p.content) ? Object.values(p.content)[0] : undefined;
    const location = p.in as Parameter["in"];
    const style = (str(p.style) ?? (location === "query" || location === "cookie" ? "form" : "simple")) as ParameterStyle;
    return {
      name: String(p.name),
      in: location,
      required: p.required === true,
      ...opt("description", str(p.description)),
      ...(p.deprecated === true && { deprecated: true }),
      schema: toSchema(isRaw(content) ? content.schema : p.schema, src),
      style,
      explode: typeof p.explode === "boolean" ? p.explode : style === "form",
      ...(p.allowReserved === true && { allowReserved: true as const }),
    };
  };
  const contents = (value: unknown): MediaContent[] =>
    Object.entries(isRaw(value) ? value : {})
      .sort(byKey(([k]) => k))
      .map(([mediaType, media]) => {
        const raw = isRaw(media) ? media.schema : undefined;
        const schema = toSchema(raw, src);
        const encoding = mediaEncoding(mediaType, schema, raw !== undefined, named);
        const fields = encoding === "form" || encoding === "multipart" ? fieldEncodings(isRaw(media) ? media.encoding : undefined) : [];
        return { mediaType, schema, encoding, ...(fields.length > 0 && { fields }) };
      });

  // An error answer's code is in the field the conventions' envelope names (`code` without conventions).
  const conventionsRaw = isRaw(document[CONVENTIONS_KEY]) ? (document[CONVENTIONS_KEY] as Raw) : undefined;
  const envelopeRaw = conventionsRaw && isRaw(conventionsRaw.envelope) ? conventionsRaw.envelope : undefined;
  const codeField = typeof envelopeRaw?.code === "string" ? envelopeRaw.code : "code";
  const errorCodesOf = (schema: Schema): string[] => {
    const body = flattenObject(schema, named);
    const code = body.properties.find((p) => p.name === codeField)?.schema;
    const resolved = code?.kind === "ref" ? named.get(code.name) : code;
    if (resolved?.kind === "enum") return resolved.values.filter((v): v is string => typeof v === "string");
    if (schema.kind === "union") return schema.members.flatMap(errorCodesOf);
    return [];
  };

  const globalSecurity = Array.isArray(document.security) ? document.security : [];
  const security = (value: unknown): SecurityRequirement[] =>
    (Array.isArray(value) ? value : globalSecurity).map((req: unknown) =>
      Object.entries(isRaw(req) ? req : {}).map(([scheme, scopes]) => ({
        scheme,
        scopes: Array.isArray(scopes) ? scopes.map(String) : [],
      })),
    );

  const operationDrafts: Omit<Operation, "identifier">[] = [];
  const ids = new Map<string, string>();
  const paths = isRaw(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths).sort()) {
    const item = follow(document, paths[path]);
    for (const method of METHODS) {
      const op = item[method];
      if (!isRaw(op)) continue;
      const pointer = join("", "paths", path, method);
      const id = str(op.operationId) ?? `${method} ${path}`;
      const first = ids.get(id);
      if (first) problems.push({ pointer: join(pointer, "operationId"), message: `operationId "${id}" is also used at ${first}` });
      ids.set(id, join(pointer, "operationId"));
      const params = new Map<string, Parameter>();
      const listed: unknown[] = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(op.parameters) ? op.parameters : []),
      ];
      for (const value of listed) {
        const p = convertParameter(value);
        if (p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
        params.set(`${p.in}:${p.name}`, p); // operation-level parameters override path-level ones
      }
      const key = idempotencyKeyHeader(op, [...params.values()]);
      // The key's header parameter is no parameter of the call: the clients send a key themselves (see types.ts).
      const all = [...params.values()].filter((p) => key === undefined || p.in !== "header" || p.name.toLowerCase() !== key.toLowerCase());
      const body = isRaw(op.requestBody) ? follow(document, op.requestBody) : undefined;
      const responses: Response[] = Object.entries(isRaw(op.responses) ? op.responses : {})
        .sort(byKey(([k]) => k))
        .map(([status, value]) => {
          const r = follow(document, value);
          const rc = contents(r.content);
          const headers: Header[] = Object.entries(isRaw(r.headers) ? r.headers : {}).map(([name, h]) => {
            const header = follow(document, h);
            return {
              name,
              required: header.required === true,
              ...opt("description", str(header.description)),
              schema: toSchema(header.schema, src),
            };
          });
          const isError = /^[45]/.test(status) || status === "default";
          const codes = isError ? [...new Set(rc.flatMap((c) => errorCodesOf(c.schema)))].sort() : [];
          return { status, description: str(r.description) ?? "", headers, contents: rc, errorCodes: codes };
        });
      const variants = isRaw(op[VARIANTS_KEY]) ? buildVariants(op[VARIANTS_KEY] as Raw, named) : undefined;
      const subscription = op[WEBHOOK_SUBSCRIPTION_KEY];
      const billed = op[BILLED_KEY] === true;
      const marked = op[IDEMPOTENT_KEY];
      operationDrafts.push({
        id,
        method,
        path,
        requestPath: requestPath(path),
        ...opt("summary", str(op.summary)),
        ...opt("description", str(op.description)),
        deprecated: op.deprecated === true,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        parameters: {
          path: all.filter((p) => p.in === "path"),
          query: all.filter((p) => p.in === "query"),
          header: all.filter((p) => p.in === "header"),
          cookie: all.filter((p) => p.in === "cookie"),
        },
        ...(body && {
          requestBody: {
            required: body.required === true,
            ...opt("description", str(body.description)),
            contents: contents(body.content),
          },
        }),
        responses,
        security: security(op.security),
        ...opt("servers", operationServers(op.servers, item.servers)),
        errorCodes: [...new Set(responses.flatMap((r) => r.errorCodes))].sort(),
        ...(variants && { variants }),
        ...(isWebhookSubscriptionMode(subscription) && { webhookSubscription: subscription }),
        ...(isRaw(op[JOB_KEY]) && { job: buildJobRole(op[JOB_KEY] as Raw, all.filter((p) => p.in === "path")[0]?.name ?? "") }),
        ...(isRaw(op[PAGINATION_KEY])
          ? { pagination: statedPagination(strings(op[PAGINATION_KEY])) }
          : opt("pagination", recognisedPagination(method, all, responses, named))),
        billed,
        idempotent: !billed && (typeof marked === "boolean" ? marked : IDEMPOTENT_METHODS.has(method)),
        ...opt("idempotencyKey", key),
      });
    }
  }
  const opIds = uniqueIdentifiers(
    operationDrafts.map((o) => o.id),
    camelCase,
  );
  const operations: Operation[] = operationDrafts.map((o) => ({ ...o, identifier: opIds.get(o.id)! }));

  const webhooksRaw = isRaw(document.webhooks) ? document.webhooks : {};
  const hookIds = uniqueIdentifiers(Object.keys(webhooksRaw), pascalCase);
  const webhooks: Webhook[] = Object.keys(webhooksRaw)
    .sort()
    .flatMap((event) => {
      const item = follow(document, webhooksRaw[event]);
      const op = isRaw(item.post) ? item.post : undefined;
      if (!op) return [];
      const body = follow(document, op.requestBody);
      const media = isRaw(body.content) ? body.content["application/json"] : undefined;
      return [
        {
          event,
          id: str(op.operationId) ?? event,
          identifier: hookIds.get(event)!,
          ...opt("summary", str(op.summary)),
          ...opt("description", str(op.description)),
          method: "post" as const,
          headers: (Array.isArray(op.parameters) ? op.parameters : []).map((p) => convertParameter(p)),
          body: toSchema(isRaw(media) ? media.schema : undefined, src),
        },
      ];
    });

  const errors = buildErrors(document, problems);
  if (problems.length > 0) throw new SpecError(loaded.source, problems);
  const info = isRaw(document.info) ? document.info : {};
  const servers = buildServers(document);
  const securitySchemes = buildSecuritySchemes(document);
  // Inline enums and objects get names from their place, named schemas first, then operations, then webhooks.
  const namer = new InlineNamer(schemas);
  const namedSchemas = schemas.map((s) => ({ ...s, schema: namer.schema(s.schema, s.identifier, true) }));
  const namedOperations = operations.map((op) => namer.operation(op));
  const namedWebhooks = webhooks.map((w) => namer.webhook(w));
  return {
    irVersion: IR_VERSION,
    words: wordsOf(namedSchemas, namedOperations, errors, namedWebhooks),
    info: {
      title: str(info.title) ?? "",
      version: str(info.version) ?? "",
      ...opt("description", str(info.description)),
      openapi: loaded.openapi,
      descriptionHash: loaded.hash,
    },
    servers,
    securitySchemes,
    schemas: namedSchemas,
    operations: namedOperations,
    errors,
    webhooks: namedWebhooks,
    ...(isRaw(document[CONVENTIONS_KEY]) && { conventions: buildConventions(document[CONVENTIONS_KEY] as Raw) }),
  };
}

/** A form or multipart body's `encoding` object as the IR's field encodings, sorted by field name. */
function fieldEncodings(value: unknown): FieldEncoding[] {
  if (!isRaw(value)) return [];
  return Object.keys(value)
    .sort()
    .flatMap((name) => {
      const e = value[name];
      if (!isRaw(e)) return [];
      return [
        {
          name,
          ...(typeof e.contentType === "string" && { contentType: e.contentType }),
          ...(typeof e.style === "string" && { style: e.style as ParameterStyle }),
          ...(typeof e.explode === "boolean" && { explode: e.explode }),
          ...(e.allowReserved === true && { allowReserved: true as const }),
        },
      ];
    });
}

/** The words of every name that becomes an identifier, by name, in sorted order of the names. */
function wordsOf(
  schemas: readonly NamedSchema[],
  operations: readonly Operation[],
  errors: readonly ErrorCode[],
  webhooks: readonly Webhook[],
): Record<string, string[]> {
  const names = new Set<string>();
  const seen = new Set<Schema>();
  const walk = (schema: Schema | undefined): void => {
    if (schema === undefined || seen.has(schema)) return;
    seen.add(schema);
    if ((schema.kind === "object" || schema.kind === "enum") && schema.inlineName !== undefined) names.add(schema.inlineName);
    switch (schema.kind) {
      case "object":
        for (const p of schema.properties) {
          names.add(p.name);
          walk(p.schema);
        }
        if (typeof schema.additionalProperties === "object") walk(schema.additionalProperties);
        return;
      case "array":
        walk(schema.items);
        return;
      case "union":
      case "intersection":
        for (const m of schema.members) walk(m);
        return;
      case "enum":
        for (const v of schema.values) if (typeof v === "string") names.add(v);
        return;
      case "json-text":
        walk(schema.value);
        return;
      default:
        return;
    }
  };
  for (const s of schemas) {
    names.add(s.name);
    walk(s.schema);
  }
  for (const op of operations) {
    names.add(op.id);
    for (const p of [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie]) {
      names.add(p.name);
      walk(p.schema);
    }
    for (const c of op.requestBody?.contents ?? []) walk(c.schema);
    for (const r of op.responses) for (const c of r.contents) walk(c.schema);
  }
  for (const e of errors) names.add(e.code);
  for (const w of webhooks) {
    names.add(w.event);
    walk(w.body);
  }
  return Object.fromEntries([...names].sort().map((name) => [name, nameWords(name)]));
}

/**
 * The header an operation takes an idempotency key in: `x-idempotency-key`'s when given (the loader checked its
 * shape), else the name of a header parameter named Idempotency-Key in any case, as Stripe-like APIs declare it.
 */
function idempotencyKeyHeader(op: Raw, parameters: readonly Parameter[]): string | undefined {
  const stated = op[IDEMPOTENCY_KEY_KEY];
  if (isRaw(stated) && typeof stated.header === "string") return stated.header;
  return parameters.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key")?.name;
}

/** Methods that HTTP defines as idempotent: sending one twice has the effect of sending it once. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["get", "head", "put", "delete", "options", "trace"]);

/** A path key up to its fragment: a URL never sends what follows `#` (RFC 3986, section 3.5). */
function requestPath(path: string): string {
  const hash = path.indexOf("#");
  return hash < 0 ? path : path.slice(0, hash);
}

/** `onlyPathParameter` names the parameter a role leaves unnamed (the check made sure there is exactly one). */
function buildJobRole(ext: Raw, onlyPathParameter: string): JobRole {
  if (ext.role === "poll") {
    return {
      role: "poll",
      jobIdParameter: str(ext.jobIdParameter) ?? onlyPathParameter,
      status: String(ext.status),
      completed: String(ext.completed),
      payload: (ext.payload as unknown[]).map(String),
    };
  }
  if (ext.role === "download") return { role: "download", tokenParameter: str(ext.tokenParameter) ?? onlyPathParameter };
  const noWait = isRaw(ext.noWait) ? ext.noWait : undefined;
  return {
    role: "submit",
    poll: String(ext.poll),
    jobId: String(ext.jobId),
    ...opt("pollUrl", str(ext.pollUrl)),
    ...(typeof ext.stillRunningStatus === "number" && { stillRunningStatus: ext.stillRunningStatus }),
    ...(noWait && { noWait: { field: String(noWait.field), value: noWait.value as string | number | boolean } }),
    ...opt("selectorPattern", str(ext.selectorPattern)),
    ...opt("selectorRefusal", str(ext.selectorRefusal)),
    ...(typeof ext.maxHoldSeconds === "number" && { maxHoldSeconds: ext.maxHoldSeconds }),
  };
}

function buildConventions(ext: Raw): Conventions {
  const basePath = isRaw(ext.basePath) ? ext.basePath : undefined;
  const envelope = isRaw(ext.envelope) ? ext.envelope : undefined;
  const tokens = isRaw(ext.tokens) ? ext.tokens : undefined;
  const webhooks = isRaw(ext.webhooks) ? ext.webhooks : undefined;
  return {
    ...opt("basePathSuffix", str(basePath?.suffix)),
    ...(envelope && {
      envelope: {
        status: String(envelope.status),
        success: String(envelope.success),
        error: String(envelope.error),
        code: String(envelope.code),
        message: String(envelope.message),
        ...opt("processingTime", str(envelope.processingTime)),
        ...opt("billing", str(envelope.billing)),
        ...(Array.isArray(envelope.nextRequestSeconds) && { nextRequestSeconds: envelope.nextRequestSeconds.map(String) }),
      },
    }),
    ...(tokens && {
      tokens: {
        scheme: String(tokens.scheme),
        brand: String(tokens.brand),
        kinds: (tokens.kinds as Raw[]).map((k) => ({ prefix: String(k.prefix), name: String(k.name), serverOnly: k.serverOnly === true })),
        renewOn: Array.isArray(tokens.renewOn) ? tokens.renewOn.map(String) : [],
      },
    }),
    ...(webhooks && { webhooks: buildWebhookConventions(webhooks) }),
    ...(isRaw(ext.webhookSubscription) && { webhookSubscription: strings(ext.webhookSubscription) as unknown as SubscriptionFields }),
    ...(isRaw(ext.form) && (ext.form.arrays === "brackets" || ext.form.arrays === "repeat") && { form: { arrays: ext.form.arrays } }),
  };
}

/** A checked object of names, copied as strings (members left out stay out). */
const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(isRaw(value) ? value : {}).map(([k, v]) => [k, String(v)]));

/** The checked `webhooks` member. */
function buildWebhookConventions(ext: Raw): WebhookConventions {
  const signature = isRaw(ext.signature) ? ext.signature : {};
  return {
    signature: { header: String(signature.header), prefix: String(signature.prefix) },
    headers: strings(ext.headers) as unknown as WebhookConventions["headers"],
    body: strings(ext.body) as unknown as WebhookConventions["body"],
  };
}

function buildServers(document: Raw): Server[] {
  return convertServers(document.servers);
}

/** An operation's servers win over its path's; an empty or absent list leaves the next level to apply. */
function operationServers(own: unknown, path: unknown): Server[] | undefined {
  for (const level of [own, path]) {
    const servers = convertServers(level);
    if (servers.length > 0) return servers;
  }
  return undefined;
}

function convertServers(value: unknown): Server[] {
  return (Array.isArray(value) ? value : []).filter(isRaw).map((s) => ({
    url: String(s.url),
    ...opt("description", str(s.description)),
    variables: Object.entries(isRaw(s.variables) ? s.variables : {})
      .sort(byKey(([k]) => k))
      .map(([name, v]) => ({
        name,
        default: String((v as Raw).default),
        ...(Array.isArray((v as Raw).enum) && { enum: ((v as Raw).enum as unknown[]).map(String) }),
      })),
  }));
}

function buildSecuritySchemes(document: Raw): SecurityScheme[] {
  const raw = isRaw(document.components) && isRaw(document.components.securitySchemes) ? document.components.securitySchemes : {};
  return Object.keys(raw)
    .sort()
    .map((name) => {
      const s = follow(document, raw[name]);
      return {
        name,
        type: s.type as SecurityScheme["type"],
        ...opt("scheme", str(s.scheme)),
        ...opt("in", str(s.in) as SecurityScheme["in"]),
        ...opt("parameterName", str(s.name)),
        ...opt("description", str(s.description)),
      };
    });
}

/**
 * The error catalogue: every `const` that carries its HTTP status as `x-http-status`, in a oneOf of
 * components/schemas (as ErrorCode does). A code listed twice with two statuses is a problem.
 */
function buildErrors(document: Raw, problems: SpecProblem[]): ErrorCode[] {
  const raw = isRaw(document.components) && isRaw(document.components.schemas) ? document.components.schemas : {};
  const found = new Map<string, ErrorCode & { pointer: string }>();
  for (const name of Object.keys(raw).sort()) {
    const members = (raw[name] as Raw).oneOf;
    if (!Array.isArray(members)) continue;
    members.forEach((m, i) => {
      if (!isRaw(m) || typeof m.const !== "string" || typeof m["x-http-status"] !== "number") return;
      const pointer = join("", "components", "schemas", name, "oneOf", i);
      const before = found.get(m.const);
      if (before && before.status !== m["x-http-status"]) {
        problems.push({
          pointer,
          message: `error code ${m.const} has status ${m["x-http-status"]} here and ${before.status} at ${before.pointer}`,
        });
      }
      found.set(m.const, { code: m.const, status: m["x-http-status"], ...opt("description", str(m.description)), pointer });
    });
  }
  return [...found.values()].map(({ pointer: _, ...e }) => e).sort((a, b) => a.status - b.status || (a.code < b.code ? -1 : 1));
}

function buildVariants(ext: Raw, named: ReadonlyMap<string, Schema>): VariantSet {
  const nameOf = (ref: unknown): string => componentSchemaName(String((ref as Raw).$ref)) ?? String((ref as Raw).$ref);
  const rawPipelines = (ext.pipelines as Raw[]) ?? [];
  const pipelineIds = uniqueIdentifiers(
    rawPipelines.map((p) => String(p.slug)),
    pascalCase,
  );
  const pipelines: Pipeline[] = rawPipelines.map((p) => {
    const pipelineId = pipelineIds.get(String(p.slug))!;
    const variants = ((p.variants as Raw[]) ?? []).map((v) => {
      const requestSchema = nameOf(v.request);
      const d = isRaw(v.discriminator) ? v.discriminator : undefined;
      return {
        name: String(v.name),
        identifier: `${pipelineId}${pascalCase(String(v.name))}`,
        ...opt("summary", str(v.summary)),
        ...opt("description", str(v.description)),
        ...(d && { discriminator: { property: String(d.property), value: String(d.value), serverDefault: d.serverDefault === true } }),
        open: v.open === true,
        requestSchema,
        request: flattenObject({ kind: "ref", name: requestSchema }, named),
        ...(isRaw(v.payload) && { payload: { kind: "ref" as const, name: nameOf(v.payload) } }),
        exactlyOne: Array.isArray(v.exactlyOne) ? (v.exactlyOne as string[][]).map((g) => [...g]) : [],
        jsonStrings: Array.isArray(v.jsonStrings) ? (v.jsonStrings as string[]).map(String) : [],
      };
    });
    return {
      slug: String(p.slug),
      identifier: pipelineId,
      ...opt("summary", str(p.summary)),
      ...opt("description", str(p.description)),
      payloadAfterPolling: p.payloadAfterPolling as Pipeline["payloadAfterPolling"],
      ...(typeof p.baseCredits === "number" && { baseCredits: p.baseCredits }),
      variants,
      discriminators: [...new Set(variants.flatMap((v) => (v.discriminator ? [v.discriminator.property] : [])))],
    };
  });
  const pricing = isRaw(ext.pricing) ? ext.pricing : undefined;
  return {
    selector: String((ext.selector as Raw).name),
    ...(pricing && {
      pricing: {
        unit: "credits" as const,
        ...(typeof pricing.minimumCharge === "number" && { minimumCharge: pricing.minimumCharge }),
        laneField: String(pricing.laneField),
        defaultLane: String(pricing.defaultLane),
        laneMultipliers: Object.fromEntries(Object.entries(pricing.laneMultipliers as Record<string, number>)),
      },
    }),
    pipelines,
  };
}

/** Total fields a recognised limit/offset read may carry, in the order they are looked for. */
const TOTAL_FIELDS = ["total", "total_count", "count"];

/** The checked `x-paperoffice-pagination`, by its kind (offset when it names none). */
function statedPagination(given: Record<string, string>): Pagination {
  if (given.kind === "cursor")
    return { kind: "cursor", cursor: given.cursor!, next: given.next!, items: given.items!, source: "extension" };
  const { limit, offset, items, total } = given;
  return { kind: "offset", limit: limit!, offset: offset!, items: items!, ...(total === undefined ? {} : { total }), source: "extension" };
}

/** Query parameters that carry a cursor in the reads a cursor scheme is recognised in. */
const CURSOR_PARAMETERS = ["cursor", "after", "page_token", "pageToken", "starting_after", "next_token", "continuation_token"];
/** Answer fields that give the next page's cursor in those reads. */
const NEXT_CURSOR_FIELDS = ["next_cursor", "nextCursor", "next", "next_page_token", "nextPageToken", "next_token", "nextToken", "cursor"];

/**
 * A paged read the description shows without `x-paperoffice-pagination`, only where its shapes leave no doubt, in
 * this order: limit/offset (source `offset-limit`): a GET with number query parameters `limit` and `offset` whose
 * first JSON success answer is an object (through references and allOf) with exactly one array property; a cursor
 * (source `cursor`): a GET with exactly one string query parameter of CURSOR_PARAMETERS whose answer object has
 * exactly one array property and exactly one string (or nullable string) property of NEXT_CURSOR_FIELDS; a Link
 * header (source `link-header`): a GET whose first success answer declares a `Link` header and whose JSON answer is
 * an array, or an object with exactly one array property. Anything else is not guessed at.
 */
function recognisedPagination(
  method: string,
  parameters: readonly Parameter[],
  responses: readonly Response[],
  named: ReadonlyMap<string, Schema>,
): Pagination | undefined {
  if (method !== "get") return undefined;
  const query = parameters.filter((p) => p.in === "query");
  const numeric = (name: string) => query.some((p) => p.name === name && (p.schema.kind === "integer" || p.schema.kind === "number"));
  const success = responses.find((r) => /^2\d\d$/.test(r.status));
  const answer = success?.contents.find((c) => c.encoding === "json")?.schema;
  const properties = answer === undefined ? undefined : objectProperties(answer, named, new Set());
  const arrays = properties?.filter((p) => p.schema.kind === "array") ?? [];
  const items = arrays.length === 1 ? arrays[0]!.name : undefined;
  if (numeric("limit") && numeric("offset")) {
    if (items === undefined) return undefined;
    const total = TOTAL_FIELDS.find((name) =>
      properties!.some((p) => p.name === name && (p.schema.kind === "integer" || p.schema.kind === "number")),
    );
    return { kind: "offset", limit: "limit", offset: "offset", items, ...(total === undefined ? {} : { total }), source: "offset-limit" };
  }
  const cursors = query.filter((p) => CURSOR_PARAMETERS.includes(p.name) && isStringLike(p.schema, named));
  const nexts = (properties ?? []).filter((p) => NEXT_CURSOR_FIELDS.includes(p.name) && isStringLike(p.schema, named));
  if (cursors.length === 1 && nexts.length === 1 && items !== undefined)
    return { kind: "cursor", cursor: cursors[0]!.name, next: nexts[0]!.name, items, source: "cursor" };
  if (success?.headers.some((h) => h.name.toLowerCase() === "link")) {
    if (answer !== undefined && isArray(answer, named)) return { kind: "link", source: "link-header" };
    if (items !== undefined) return { kind: "link", items, source: "link-header" };
  }
  return undefined;
}

/** A string, or a union of a string and null (a nullable string in either form), through references. */
function isStringLike(schema: Schema, named: ReadonlyMap<string, Schema>): boolean {
  const target = schema.kind === "ref" ? named.get(schema.name) : schema;
  if (target === undefined) return false;
  if (target.kind === "string") return true;
  return (
    target.kind === "union" &&
    target.members.some((m) => m.kind === "string") &&
    target.members.every((m) => m.kind === "string" || m.kind === "null")
  );
}

/** An array schema, through one reference. */
function isArray(schema: Schema, named: ReadonlyMap<string, Schema>): boolean {
  return (schema.kind === "ref" ? named.get(schema.name) : schema)?.kind === "array";
}

/** The properties of an object schema through references and allOf; undefined for any other schema. */
function objectProperties(schema: Schema, named: ReadonlyMap<string, Schema>, seen: Set<string>): Property[] | undefined {
  if (schema.kind === "ref") {
    const target = named.get(schema.name);
    if (target === undefined || seen.has(schema.name)) return undefined;
    seen.add(schema.name);
    return objectProperties(target, named, seen);
  }
  if (schema.kind === "object") return [...schema.properties];
  if (schema.kind !== "intersection") return undefined;
  const parts = schema.members.map((m) => objectProperties(m, named, seen));
  return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
}
