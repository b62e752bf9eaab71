// What the generated client tells the runtime about an operation and about the whole description: plain data,
// from the IR only, so that the runtime holds no path, field name or rule of the service.
import type {
  CursorPagination,
  IR,
  LinkPagination,
  OffsetPagination,
  Operation,
  Pagination,
  Schema,
  Server,
} from "../../../../generator/ir/types.js";
import { envNames } from "../../../../generator/emit/env-names.js";
import { declaredRequestIdHeader } from "../../../../generator/emit/request-id.js";
import {
  formContent,
  isBinaryResponse,
  jsonBodyMediaType,
  rawBodyMediaType,
  requestMediaType,
  requestBodyContent,
} from "../../../../generator/emit/operation-files.js";

export { isBinaryResponse, rawBodyMediaType, requestBodyContent };

/** What an operation's OperationSpec holds; operations.ts prints it as an object literal (ts-nodes.ts's jsonExpression). */
export interface OperationSpecData {
  operationId: string;
  method: string;
  path: string;
  requestMediaType?: string;
  /** Only for an operation that takes a urlencoded form and no multipart one. */
  urlencoded?: true;
  /** Only for a JSON body of another JSON media type than application/json. */
  jsonMediaType?: string;
  /** Only for a binary answer: the runtime reads an operation without it as JSON. */
  response?: "binary";
  /** Only when it differs from what the method implies (the runtime's isResendable reads the method otherwise). */
  idempotent?: boolean;
  billed?: true;
  /** Only for an operation that takes an idempotency key: the header it goes in. */
  idempotencyKey?: string;
  job?: "submit" | "poll" | "download";
  pagination?: PaginationData;
  security: string[][];
  /** Only for an operation with servers of its own. */
  servers?: ServerData[];
}

/** A server as the runtime's ServerModel holds it: variables by name. */
export interface ServerData {
  url: string;
  variables?: Record<string, { default: string; enum?: readonly string[] }>;
}

function serverData(s: Server): ServerData {
  return {
    url: s.url,
    ...(s.variables.length > 0 && {
      variables: Object.fromEntries(s.variables.map((v) => [v.name, { default: v.default, ...(v.enum && { enum: v.enum }) }])),
    }),
  };
}

/** Methods HTTP defines as idempotent, as the runtime's isResendable knows them. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);

export function operationSpec(op: Operation): OperationSpecData {
  const jsonType = jsonBodyMediaType(op);
  const form = formContent(op);
  // A form or JSON by the canonical media type of its encoding, which is what the runtime's encodingFor tells apart.
  const mediaType = requestMediaType(op);
  return {
    operationId: op.id,
    method: op.method.toUpperCase(),
    path: op.requestPath,
    ...(mediaType && { requestMediaType: mediaType }),
    ...(form?.encoding === "form" && { urlencoded: true as const }),
    ...(mediaType === "application/json" && jsonType !== undefined && jsonType !== "application/json" && { jsonMediaType: jsonType }),
    ...(isBinaryResponse(op) && { response: "binary" as const }),
    ...(op.idempotent !== IDEMPOTENT_METHODS.has(op.method.toUpperCase()) && { idempotent: op.idempotent }),
    ...(op.billed && { billed: true as const }),
    ...(op.idempotencyKey !== undefined && { idempotencyKey: op.idempotencyKey }),
    ...(op.job && { job: op.job.role }),
    // The runtime's generic paginate() pages by offset; a cursor or Link read's names are in its paginate function.
    ...(op.pagination?.kind === "offset" && { pagination: paginationNames(op.pagination) }),
    security: op.security.map((requirement) => requirement.map((s) => s.scheme)),
    ...(op.servers && { servers: op.servers.map(serverData) }),
  };
}

/** The jobs model: the submit, poll and download operations with the names they use, when the description marks them. */
export function jobsModel(ir: IR): Record<string, unknown> | undefined {
  const find = (role: string) => ir.operations.find((o) => o.job?.role === role);
  const submit = find("submit");
  const poll = find("poll");
  const download = find("download");
  if (submit?.job?.role !== "submit" || poll?.job?.role !== "poll") return undefined;
  const { role: _s, poll: _p, ...submitNames } = submit.job;
  const { role: _r, ...pollNames } = poll.job;
  return {
    submit: {
      operation: operationSpec(submit),
      ...(submit.variants && { pipelineParameter: submit.variants.selector }),
      ...submitNames,
    },
    poll: { operation: operationSpec(poll), ...pollNames },
    ...(download?.job?.role === "download" && {
      download: { operation: operationSpec(download), tokenParameter: download.job.tokenParameter },
    }),
  };
}

/** Everything of the description the runtime needs besides errors and pipelines. */
export function descriptionModel(ir: IR): Record<string, unknown> {
  const jobs = jobsModel(ir);
  return {
    title: ir.info.title,
    servers: ir.servers.map(serverData),
    securitySchemes: Object.fromEntries(
      ir.securitySchemes.map((s) => [
        s.name,
        s.type === "http"
          ? { type: "http", scheme: (s.scheme ?? "bearer").toLowerCase() }
          : s.type === "apiKey"
            ? { type: "apiKey", in: s.in ?? "header", name: s.parameterName ?? "" }
            : { type: s.type },
      ]),
    ),
    env: envNames(ir),
    ...(declaredRequestIdHeader(ir) !== undefined && { requestIdHeader: declaredRequestIdHeader(ir) }),
    ...(ir.conventions && { conventions: ir.conventions }),
    ...(jobs && { jobs }),
  };
}

/**
 * The named schema of the envelope's billing object: the first reference found under a property of that name in the
 * named schemas, in the description's order. The generated client types each answer's `meta.billing` with it.
 */
export function billingSchema(ir: IR): string | undefined {
  const field = ir.conventions?.envelope?.billing;
  if (field === undefined) return undefined;
  const find = (schema: Schema, depth: number): string | undefined => {
    if (depth > 8) return undefined;
    switch (schema.kind) {
      case "object":
        for (const property of schema.properties) {
          if (property.name === field && property.schema.kind === "ref") return property.schema.name;
        }
        for (const property of schema.properties) {
          const found = find(property.schema, depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      case "union":
      case "intersection":
        for (const member of schema.members) {
          const found = find(member, depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      case "array":
        return find(schema.items, depth + 1);
      default:
        return undefined;
    }
  };
  for (const named of ir.schemas) {
    const found = find(named.schema, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** How a runtime pages (PaginationModel): a limit/offset read without a kind, the others by theirs. */
export type PaginationData = Omit<OffsetPagination, "source" | "kind"> | Omit<CursorPagination, "source"> | Omit<LinkPagination, "source">;

/** The names a runtime pages by (PaginationModel), without where the IR found them. */
export function paginationNames(paging: Pagination): PaginationData {
  if (paging.kind === "offset") {
    const { source: _source, kind: _kind, ...names } = paging;
    return names;
  }
  const { source: _source, ...names } = paging;
  return names;
}
