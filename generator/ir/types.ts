/**
 * The intermediate model: a closed, JSON-serialisable, language-neutral view of one description.
 * Emitters read only this. Its JSON Schema, generator/ir/ir.schema.json, is generated from these types by
 * `npm run ir-schema` (scripts/ir-schema.ts): the JSDoc tags here (`@description`, `@pattern`, `@asType`,
 * `@minimum`, `@discriminator`, `@title`, `@id`) are schema keywords. A change of shape bumps IR_VERSION.
 */
export const IR_VERSION = "1.13.0";

/** Any JSON value (defaults and examples as the description gives them). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** What every schema node may carry besides its kind. */
export interface SchemaMeta {
  readonly description?: string;
  readonly default?: JsonValue;
  readonly examples?: readonly JsonValue[];
  readonly deprecated?: boolean;
}

/**
 * A schema node; `kind` says which.
 * @discriminator kind
 */
export type Schema =
  | RefSchema
  | StringSchema
  | NumberSchema
  | BooleanSchema
  | NullSchema
  | EnumSchema
  | ArraySchema
  | ObjectSchema
  | UnionSchema
  | IntersectionSchema
  | FileSchema
  | JsonTextSchema
  | UnknownSchema;

/** A named schema of `schemas`. */
export interface RefSchema extends SchemaMeta {
  readonly kind: "ref";
  readonly name: string;
}
/** A string. */
export interface StringSchema extends SchemaMeta {
  readonly kind: "string";
  readonly format?: string;
  readonly pattern?: string;
  /** @asType integer @minimum 0 */
  readonly minLength?: number;
  /** @asType integer @minimum 0 */
  readonly maxLength?: number;
}
/** A number or an integer. */
export interface NumberSchema extends SchemaMeta {
  readonly kind: "number" | "integer";
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
}
/** true or false. */
export interface BooleanSchema extends SchemaMeta {
  readonly kind: "boolean";
}
/** null. */
export interface NullSchema extends SchemaMeta {
  readonly kind: "null";
}
/** A closed set of literal values (`enum`, or `const` as a set of one). */
export interface EnumSchema extends SchemaMeta {
  readonly kind: "enum";
  readonly values: readonly (string | number | boolean | null)[];
  /** Per value, where the description documents it (for example a oneOf of consts). */
  readonly valueDescriptions?: Readonly<Record<string, string>>;
  /** For an enum written inline (not a named schema's own node): a name from its place (generator/ir/inline-names.ts). */
  readonly inlineName?: string;
}
/** A list. */
export interface ArraySchema extends SchemaMeta {
  readonly kind: "array";
  readonly items: Schema;
  /** @asType integer @minimum 0 */
  readonly minItems?: number;
  /** @asType integer @minimum 0 */
  readonly maxItems?: number;
}
/** A property of an object, in the description's order. */
export interface Property {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
}
/** An object; `additionalProperties` false: closed, true: any further property, a schema: further properties of that schema. */
export interface ObjectSchema extends SchemaMeta {
  readonly kind: "object";
  /** In the description's order. */
  readonly properties: readonly Property[];
  /** false: closed; true: any further property; a schema: further properties of that schema. */
  readonly additionalProperties: boolean | Schema;
  /** Groups of properties of which exactly one must be present (`oneOf` of single `required`). */
  readonly exactlyOne?: readonly (readonly string[])[];
  /**
   * A `oneOf` of `required` lists where a list names several properties (GitHub's `[id]` or `[owner, repo, number]`):
   * exactly one list is complete.
   */
  readonly oneOfRequired?: readonly (readonly string[])[];
  /** For an object written inline (not a named schema's own node): a name from its place (generator/ir/inline-names.ts). */
  readonly inlineName?: string;
}
/** oneOf (exactly one member matches) or anyOf (at least one). */
export interface UnionSchema extends SchemaMeta {
  readonly kind: "union";
  /** oneOf: exactly one member matches; anyOf: at least one. */
  readonly mode: "oneOf" | "anyOf";
  readonly members: readonly Schema[];
  readonly discriminator?: { readonly property: string; readonly mapping: Readonly<Record<string, string>> };
}
/** allOf: every member matches. */
export interface IntersectionSchema extends SchemaMeta {
  readonly kind: "intersection";
  readonly members: readonly Schema[];
}
/** Binary content: a multipart file part or a whole binary response body. */
export interface FileSchema extends SchemaMeta {
  readonly kind: "file";
  readonly mediaType?: string;
}
/** A string field that carries a JSON text; `value` is the schema of the decoded value. */
export interface JsonTextSchema extends SchemaMeta {
  readonly kind: "json-text";
  readonly value: Schema;
}
/** Anything: the description does not constrain the value. */
export interface UnknownSchema extends SchemaMeta {
  readonly kind: "unknown";
}

/**
 * A valid, non-reserved identifier of the target languages (see generator/ir/names.ts).
 * @pattern ^[A-Za-z_][A-Za-z0-9_]*$
 */
export type Identifier = string;

/** A named schema (`components/schemas`). */
export interface NamedSchema {
  /** The name in the description (components/schemas key). */
  readonly name: string;
  /** A valid, non-reserved identifier in PascalCase, unique among named schemas. */
  readonly identifier: Identifier;
  readonly schema: Schema;
}

/** How a parameter's value is serialized (OpenAPI's `style`). */
export type ParameterStyle = "matrix" | "label" | "simple" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

export interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly schema: Schema;
  /** As given, else OpenAPI's default for the location: `form` in query and cookie, `simple` in path and header. */
  readonly style: ParameterStyle;
  /** As given, else OpenAPI's default: true for `form`, false for the other styles. */
  readonly explode: boolean;
  /** A query value whose reserved characters (RFC 3986 `:/?#[]@!$&'()*+,;=`) are sent as they are. */
  readonly allowReserved?: true;
}

export interface Parameters {
  readonly path: readonly Parameter[];
  readonly query: readonly Parameter[];
  readonly header: readonly Parameter[];
  readonly cookie: readonly Parameter[];
}

/**
 * How a body travels: `json` (JSON text typed by the schema), `form` (application/x-www-form-urlencoded fields),
 * `multipart` (multipart/form-data parts), `text` (text as it is) or `binary` (bytes as they are).
 */
export type MediaEncoding = "json" | "form" | "multipart" | "text" | "binary";

export interface MediaContent {
  readonly mediaType: string;
  readonly schema: Schema;
  /** From the media type, and from the schema for a range that does not name a format (generator/ir/media.ts). */
  readonly encoding: MediaEncoding;
  /**
   * How the fields of a form or multipart body are written, as the description's `encoding` says, sorted by field:
   * a part's media type (a JSON part, an image), and for form fields the style, explode and allowReserved of a
   * query parameter. Fields it does not name follow OpenAPI's defaults. Absent for other encodings or when none.
   */
  readonly fields?: readonly FieldEncoding[];
}

/** The encoding of one field of a form or multipart body (OpenAPI's Encoding object). */
export interface FieldEncoding {
  readonly name: string;
  readonly contentType?: string;
  readonly style?: ParameterStyle;
  readonly explode?: boolean;
  readonly allowReserved?: true;
}

export interface RequestBody {
  readonly required: boolean;
  readonly description?: string;
  /** Sorted by media type. */
  readonly contents: readonly MediaContent[];
}

export interface Header {
  readonly name: string;
  readonly required: boolean;
  readonly description?: string;
  readonly schema: Schema;
}

export interface Response {
  /** "200", "4XX", "default"... */
  readonly status: string;
  readonly description: string;
  readonly headers: readonly Header[];
  readonly contents: readonly MediaContent[];
  /** The error codes this response can carry, from the enum of its body's `code`. */
  readonly errorCodes: readonly string[];
}

/** One set of schemes that together satisfy a requirement; an empty list means no authentication. */
export type SecurityRequirement = readonly { readonly scheme: string; readonly scopes: readonly string[] }[];

export interface Operation {
  /** operationId, or one derived from method and path when the description has none. */
  readonly id: string;
  /** A valid, non-reserved identifier in camelCase, unique among operations. */
  readonly identifier: Identifier;
  readonly method: "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
  /** The path key as the description writes it, `#fragment` included: it tells apart operations that share a path. */
  readonly path: string;
  /**
   * The path template a request goes to: `path` up to a `#`, which starts a fragment that a URL never sends
   * (Microsoft's descriptions overload a path as `/analyze#overload=stream`).
   */
  readonly requestPath: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly tags: readonly string[];
  readonly parameters: Parameters;
  readonly requestBody?: RequestBody;
  /** Sorted by status. */
  readonly responses: readonly Response[];
  /** Alternatives, any one of which is enough. */
  readonly security: readonly SecurityRequirement[];
  /**
   * The operation's own servers (operation-level, else path-level), in the description's order; absent when neither
   * level gives any, so the document's servers apply.
   */
  readonly servers?: readonly Server[];
  /** Union of the error codes of its responses, sorted. */
  readonly errorCodes: readonly string[];
  readonly variants?: VariantSet;
  /** From `x-paperoffice-webhook-subscription`: the JSON body is a webhook subscription, checked before sending. */
  readonly webhookSubscription?: "create" | "update";
  /** From `x-paperoffice-job`: the part the operation plays in jobs. */
  readonly job?: JobRole;
  /** How the operation pages: `x-paperoffice-pagination`, or a scheme recognised in the description's shapes. */
  readonly pagination?: Pagination;
  /** From `x-paperoffice-billed`: each call is charged. */
  readonly billed: boolean;
  /**
   * May be sent again after a failure that may have reached the server: `x-idempotent` when given, else true for
   * the methods idempotent by HTTP; never for a billed operation. It says what the operation is without a key:
   * an operation with `idempotencyKey` may be sent again whatever this and `billed` say.
   */
  readonly idempotent: boolean;
  /**
   * The request header the operation takes an idempotency key in: from `x-idempotency-key`, else a header parameter
   * named Idempotency-Key (in any case), which then is not among `parameters.header`. The server carries out a key
   * it has seen once only, so the clients send one on every call (the caller's, else a new random one) and the
   * same one on each retry of the call, and may send the call again after a failure that may have reached the
   * server, billed or not (a job submission excepted). Absent: the operation takes no key.
   */
  readonly idempotencyKey?: string;
}

/**
 * How a read pages, by `kind`: `offset` (a page size and an offset in the query), `cursor` (a query parameter that
 * carries the cursor an answer field gives for the next page) or `link` (the next page's URL in a `Link` answer
 * header, RFC 8288 `rel="next"`).
 * @discriminator kind
 */
export type Pagination = OffsetPagination | CursorPagination | LinkPagination;

/** Names of a limit/offset read (`x-paperoffice-pagination`, or recognised in the description's shapes). */
export interface OffsetPagination {
  readonly kind: "offset";
  readonly limit: string;
  readonly offset: string;
  readonly items: string;
  readonly total?: string;
  /**
   * Where the names come from: `extension`, the operation's `x-paperoffice-pagination`; `offset-limit`, recognised
   * without it: a GET whose query parameters `limit` and `offset` are numbers and whose JSON success answer is an
   * object with exactly one array property (the items), with `total`, `total_count` or `count` as the total when
   * it is a number property.
   */
  readonly source: "extension" | "offset-limit";
}

/** Names of a read that pages by a cursor: the query parameter that takes it and the answer field that gives it. */
export interface CursorPagination {
  readonly kind: "cursor";
  /** Query parameter that carries the cursor of the page asked for (absent on the first page). */
  readonly cursor: string;
  /** Answer field holding the next page's cursor; absent, null or empty on the last page. */
  readonly next: string;
  /** Answer field holding the page's items (an array). */
  readonly items: string;
  /**
   * Where the names come from: `extension`, the operation's `x-paperoffice-pagination`; `cursor`, recognised
   * without it: a GET with exactly one string query parameter among `cursor`, `after`, `page_token`, `pageToken`,
   * `starting_after`, `next_token` and `continuation_token`, whose JSON success answer is an object with exactly
   * one array property (the items) and exactly one string property among `next_cursor`, `nextCursor`, `next`,
   * `next_page_token`, `nextPageToken`, `next_token`, `nextToken` and `cursor`.
   */
  readonly source: "extension" | "cursor";
}

/** A read whose answer's `Link` header gives the next page's URL (`rel="next"`), as GitHub's lists do. */
export interface LinkPagination {
  readonly kind: "link";
  /** Answer field holding the page's items; absent when the answer itself is the array. */
  readonly items?: string;
  /**
   * Where it comes from: `link-header`, recognised: a GET whose success answer declares a `Link` header and whose
   * JSON answer is an array, or an object with exactly one array property.
   */
  readonly source: "link-header";
}

/** The part an operation plays in jobs (`x-paperoffice-job`). */
export type JobRole = JobSubmit | JobPoll | JobDownload;

export interface JobSubmit {
  readonly role: "submit";
  /** operationId of the poll operation. */
  readonly poll: string;
  /** Answer field holding the job id. */
  readonly jobId: string;
  readonly pollUrl?: string;
  /**
   * Success status meaning the job goes on after the hold.
   * @asType integer
   */
  readonly stillRunningStatus?: number;
  /** Body field and value that ask for the job id at once. */
  readonly noWait?: { readonly field: string; readonly value: string | number | boolean };
  readonly selectorPattern?: string;
  readonly selectorRefusal?: string;
  /** Longest the service holds a submission before answering, in seconds. */
  readonly maxHoldSeconds?: number;
}

export interface JobPoll {
  readonly role: "poll";
  readonly jobIdParameter: string;
  readonly status: string;
  readonly completed: string;
  /** Answer fields that may hold the payload, in reading order. */
  readonly payload: readonly string[];
}

export interface JobDownload {
  readonly role: "download";
  readonly tokenParameter: string;
}

/** Service-wide conventions (`x-paperoffice-conventions`). */
export interface Conventions {
  /** The base address ends with this path. */
  readonly basePathSuffix?: string;
  readonly envelope?: Envelope;
  readonly tokens?: TokenConventions;
  readonly webhooks?: WebhookConventions;
  /** Field names of a webhook subscription body, by role. */
  readonly webhookSubscription?: SubscriptionFields;
  /** How form bodies name array items. */
  readonly form?: { readonly arrays: "brackets" | "repeat" };
}

/** What a webhook delivery's headers and body fields are called (`x-paperoffice-conventions.webhooks`). */
export interface WebhookConventions {
  /** Header of the `<prefix><64 lowercase hex>` HMAC-SHA256 of the raw body. */
  readonly signature: { readonly header: string; readonly prefix: string };
  /** Delivery headers that repeat a body field. */
  readonly headers: { readonly eventId: string; readonly eventType?: string; readonly subscriptionId?: string };
  /** Field names of every delivery body. */
  readonly body: { readonly eventType: string; readonly eventId: string; readonly subscriptionId?: string; readonly timestamp?: string };
}

export interface SubscriptionFields {
  readonly name?: string;
  readonly url: string;
  readonly events: string;
  readonly secret?: string;
  readonly retryPolicy?: string;
  readonly maxRetries?: string;
  readonly timeoutMs?: string;
}

/** Field names of the JSON object every answer is wrapped in. */
export interface Envelope {
  readonly status: string;
  readonly success: string;
  readonly error: string;
  readonly code: string;
  readonly message: string;
  readonly processingTime?: string;
  readonly billing?: string;
  readonly nextRequestSeconds?: readonly string[];
}

export interface TokenConventions {
  /** Security scheme the tokens belong to. */
  readonly scheme: string;
  readonly brand: string;
  readonly kinds: readonly { readonly prefix: string; readonly name: string; readonly serverOnly: boolean }[];
  /** 401 error codes after which a token provider is asked again. */
  readonly renewOn: readonly string[];
}

export interface VariantSet {
  /** The path parameter whose value names the pipeline. */
  readonly selector: string;
  readonly pricing?: Pricing;
  readonly pipelines: readonly Pipeline[];
}

export interface Pricing {
  readonly unit: "credits";
  readonly minimumCharge?: number;
  readonly laneField: string;
  readonly defaultLane: string;
  readonly laneMultipliers: Readonly<Record<string, number>>;
}

export interface Pipeline {
  readonly slug: string;
  /** PascalCase identifier derived from the slug, unique among pipelines. */
  readonly identifier: Identifier;
  readonly summary?: string;
  readonly description?: string;
  readonly payloadAfterPolling: "result" | "job_result";
  readonly baseCredits?: number;
  readonly variants: readonly Variant[];
  /** The body properties that choose a variant, in first-use order. */
  readonly discriminators: readonly string[];
}

export interface Variant {
  readonly name: string;
  /** PascalCase identifier: pipeline identifier + variant name, unique. */
  readonly identifier: Identifier;
  readonly summary?: string;
  readonly description?: string;
  readonly discriminator?: { readonly property: string; readonly value: string; readonly serverDefault: boolean };
  /** The parameters are not shown; further properties are allowed. */
  readonly open: boolean;
  /** Name of the request schema in `schemas`. */
  readonly requestSchema: string;
  /** The request body with allOf merged and references to objects followed: every property the variant takes. */
  readonly request: ObjectSchema;
  readonly payload?: Schema;
  readonly exactlyOne: readonly (readonly string[])[];
  /** Properties sent as JSON text; their structured schema is the json-text node in `request`. */
  readonly jsonStrings: readonly string[];
}

/** An entry of the error catalogue. */
export interface ErrorCode {
  readonly code: string;
  /** @asType integer */
  readonly status: number;
  readonly description?: string;
}

export interface Webhook {
  /** The key under `webhooks`, the event name. */
  readonly event: string;
  readonly id: string;
  readonly identifier: Identifier;
  readonly summary?: string;
  readonly description?: string;
  readonly method: "post";
  readonly headers: readonly Parameter[];
  /** The delivery body. */
  readonly body: Schema;
}

export interface SecurityScheme {
  readonly name: string;
  readonly type: "http" | "apiKey" | "oauth2" | "openIdConnect" | "mutualTLS";
  readonly scheme?: string;
  readonly in?: "header" | "query" | "cookie";
  readonly parameterName?: string;
  readonly description?: string;
}

export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables: readonly { readonly name: string; readonly default: string; readonly enum?: readonly string[] }[];
}

/**
 * The shape of generated/ir.json. See docs/ir.md. A change of shape bumps irVersion.
 * @title Intermediate model (IR) of the SDK toolchain
 * @id https://sdk-toolchain.invalid/ir.schema.json
 */
export interface IR {
  /** The version of this shape: IR_VERSION. */
  readonly irVersion: typeof IR_VERSION;
  /**
   * The words of every name a generator makes an identifier of (schema and property names, parameter names, string
   * enum values, error codes, operation ids, webhook events), lower-case, by name: a planner of any language cases
   * and joins them its own way (`listPets` -> list, pets; `HTTPServer_v2` -> http, server, v2; `BEARER-TOKEN` ->
   * bearer, token). A name with no letter or digit has no words.
   */
  readonly words: Readonly<Record<string, readonly string[]>>;
  readonly info: {
    readonly title: string;
    /** info.version; for this service the release id. */
    readonly version: string;
    readonly description?: string;
    readonly openapi: "3.0" | "3.1";
    /**
     * sha256 hex of the description text.
     * @pattern ^[0-9a-f]{64}$
     */
    readonly descriptionHash: string;
  };
  readonly servers: readonly Server[];
  readonly securitySchemes: readonly SecurityScheme[];
  /** Sorted by name. */
  readonly schemas: readonly NamedSchema[];
  /** Sorted by path, then method. */
  readonly operations: readonly Operation[];
  /** The error catalogue, sorted by status then code. */
  readonly errors: readonly ErrorCode[];
  /** Sorted by event name. */
  readonly webhooks: readonly Webhook[];
  /** From `x-paperoffice-conventions`; absent when the description states none. */
  readonly conventions?: Conventions;
}
