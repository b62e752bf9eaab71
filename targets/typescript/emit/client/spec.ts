// What the generated client tells the runtime about an operation and about the whole description: plain data,
// from the IR only, so that the runtime holds no path, field name or rule of the service.
import type { IR, Operation, Pagination, Schema, Server } from "../../../../generator/ir/types.js";
import { envNames } from "../../../../generator/emit/env-names.js";
import { rawBodyMediaType } from "../../../../generator/emit/operation-files.js";

export { rawBodyMediaType };

/** What an operation's OperationSpec holds; operations.ts prints it as an object literal (ts-nodes.ts's jsonExpression). */
export interface OperationSpecData {
  operationId: string;
  method: string;
  path: string;
  requestMediaType?: string;
  /** Only for a binary answer: the runtime reads an operation without it as JSON. */
  response?: "binary";
  /** Only when it differs from what the method implies (the runtime's isResendable reads the method otherwise). */
  idempotent?: boolean;
  billed?: true;
  job?: "submit" | "poll" | "download";
  pagination?: Pagination;
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

const isJson = (mediaType: string): boolean => mediaType.includes("json");

/** A success answer is binary when every 2xx response has content and none of it is JSON. */
export function isBinaryResponse(op: Operation): boolean {
  const ok = op.responses.filter((r) => r.status.startsWith("2"));
  return ok.length > 0 && ok.every((r) => r.contents.length > 0 && r.contents.every((c) => !isJson(c.mediaType)));
}

/** Methods HTTP defines as idempotent, as the runtime's isResendable knows them. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);

export function operationSpec(op: Operation): OperationSpecData {
  const json = op.requestBody?.contents.find((c) => isJson(c.mediaType));
  const form = op.requestBody?.contents.find(
    (c) => c.mediaType === "multipart/form-data" || c.mediaType === "application/x-www-form-urlencoded",
  );
  const mediaType = form ? form.mediaType : json ? "application/json" : rawBodyMediaType(op);
  return {
    operationId: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    ...(mediaType && { requestMediaType: mediaType }),
    ...(isBinaryResponse(op) && { response: "binary" as const }),
    ...(op.idempotent !== IDEMPOTENT_METHODS.has(op.method.toUpperCase()) && { idempotent: op.idempotent }),
    ...(op.billed && { billed: true as const }),
    ...(op.job && { job: op.job.role }),
    ...(op.pagination && { pagination: op.pagination }),
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
