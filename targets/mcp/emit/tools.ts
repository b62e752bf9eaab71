// The tools of the server, one per operation, from the IR alone: name, description, input and output JSON Schema,
// annotations, and how the server sends the call through the TypeScript runtime (by the client's operation spec).
import { isBinaryResponse, rawBodyMediaType, requestBodyContent } from "../../../generator/emit/operation-files.js";
import { type JsonSchemaOptions, toJsonSchema } from "../../../generator/ir/json-schema.js";
import type { FileSchema, IR, Operation, Parameter, Pipeline, Schema } from "../../../generator/ir/types.js";
import { fitDescription } from "./description.js";

type JsonSchema = Record<string, unknown>;

/** Where an argument of a tool goes in the request. */
export type ArgumentPlace = Parameter["in"] | "body";

export interface ToolArgument {
  /** The property of the tool's arguments. */
  readonly key: string;
  /** The parameter's name in the request (`body` for the body). */
  readonly name: string;
  readonly in: ArgumentPlace;
}

export interface ToolData {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations: {
    readonly title?: string;
    readonly readOnlyHint: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
  /** The operation it sends: the TypeScript client's `operationSpecs` holds its spec. */
  readonly operationId: string;
  readonly arguments: readonly ToolArgument[];
  /** Which runtime call sends it. */
  readonly send: "call" | "submission" | "body" | "download" | "job";
  /** A pipeline's tool: the path parameter that names the pipeline, and its value. */
  readonly pipeline?: { readonly parameter: string; readonly slug: string };
  /** Body fields sent as JSON text: the tool takes their structured value, the runtime encodes it. */
  readonly jsonStrings?: readonly string[];
  /** A job's tool: the argument that says how many seconds the call waits before it answers with the job's handle. */
  readonly waitArgument?: string;
  /**
   * Where the arguments hold files, each as the keys from the arguments down to one (`null`: any array item or map
   * value): the server decodes the file argument found there into the file the client sends.
   */
  readonly files?: readonly (readonly (string | null)[])[];
}

/**
 * A file as a tool takes it: its bytes as base64, or the URI of a download this server answered earlier (which it
 * fetches again from the service), so that a download goes on to an upload without its bytes passing through the
 * model. No local path and no other URL: the model's arguments are not trusted to name what the server may read.
 */
export function fileArgument(mediaType: string | undefined, description: string | undefined): JsonSchema {
  const type = mediaType === undefined || mediaType === "application/octet-stream" ? "" : ` (${mediaType})`;
  return {
    type: "object",
    description: [
      description?.trim(),
      `A file${type}: its bytes as base64 in data, with its filename and mediaType, or in uri a download:// resource link this server answered, whose file it fetches again. Local paths and other URLs are not taken.`,
    ]
      .filter((t) => t !== undefined && t !== "")
      .join("\n\n"),
    properties: {
      data: { type: "string", contentEncoding: "base64", description: "The file's bytes, base64 (RFC 4648)." },
      uri: { type: "string", pattern: "^download://", description: "A download:// resource link this server answered." },
      filename: { type: "string", minLength: 1, description: "The file's name as the service is told it (default: file)." },
      mediaType: { type: "string", minLength: 1, description: "The file's media type (default: application/octet-stream)." },
    },
    oneOf: [{ required: ["data"] }, { required: ["uri"] }],
    additionalProperties: false,
  };
}

/** Input schemas take a file as fileArgument's object. */
const INPUT: JsonSchemaOptions = { file: (s: FileSchema) => fileArgument(s.mediaType, s.description) };

/** Where a schema holds files: each the property names down to one, `null` for any array item or map value. */
function filePaths(ir: IR, schema: Schema): (string | null)[][] {
  const byName = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const found = new Map<string, (string | null)[]>();
  const visit = (s: Schema, path: (string | null)[], refs: ReadonlySet<string>): void => {
    switch (s.kind) {
      case "file":
        found.set(JSON.stringify(path), path);
        return;
      case "ref": {
        // A schema that holds itself is followed once on each path: a file in it is found at its first depth.
        const target = byName.get(s.name);
        if (target !== undefined && !refs.has(s.name)) visit(target, path, new Set([...refs, s.name]));
        return;
      }
      case "array":
        visit(s.items, [...path, null], refs);
        return;
      case "object":
        for (const p of s.properties) visit(p.schema, [...path, p.name], refs);
        if (typeof s.additionalProperties !== "boolean") visit(s.additionalProperties, [...path, null], refs);
        return;
      case "union":
      case "intersection":
        for (const m of s.members) visit(m, path, refs);
        return;
      default:
        return;
    }
  };
  visit(schema, [], new Set());
  return [...found.values()];
}

/** The tool that resumes waiting for a job whose tool answered with its handle. */
export const WAIT_TOOL = "wait_job";

/** The seconds a job's tool (and the wait tool) waits before answering with the job's handle, unless told. */
export const DEFAULT_WAIT_SECONDS = 45;

/** A job submission the description can poll: its tool holds and polls as the client's submitJob does. */
export function isPollableJob(ir: IR, op: Operation): boolean {
  const job = op.job;
  return job?.role === "submit" && ir.operations.some((o) => o.id === job.poll);
}

/** The wait tool's input: the job's id and how long to wait this time. */
export function waitToolInput(): JsonSchema {
  return {
    type: "object",
    properties: {
      job_id: { type: "string", minLength: 1, description: "The job's id, as a job tool's handle gives it." },
      wait_seconds: waitSecondsSchema(),
    },
    required: ["job_id"],
    additionalProperties: false,
  };
}

function waitSecondsSchema(): JsonSchema {
  return {
    type: "number",
    exclusiveMinimum: 0,
    maximum: 3600,
    description: `Seconds to wait for the job's payload before answering with its handle instead (default ${DEFAULT_WAIT_SECONDS}); ${WAIT_TOOL} resumes the wait.`,
  };
}

/** What a job's tool and the wait tool answer: the payload when the job is done, else its handle to resume. */
function jobOutputSchema(payload: JsonSchema): JsonSchema {
  return {
    type: "object",
    properties: {
      jobId: { type: "string" },
      done: { type: "boolean" },
      payload,
      status: { type: "string" },
      resume: {
        type: "object",
        properties: { tool: { const: WAIT_TOOL }, arguments: { type: "object", properties: { job_id: { type: "string" } } } },
        required: ["tool", "arguments"],
      },
    },
    required: ["jobId", "done"],
  };
}

/** The wait tool's output: a job's, any pipeline's payload. */
export function waitToolOutput(): JsonSchema {
  return jobOutputSchema({});
}

/** MCP's tool names: letters, digits, `_`, `-` and `.`, 1 to 64 of them. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * One name per operation, from its id (an operation with pipelines: one per pipeline, `<id>_<slug>`, keyed
 * `<id>\0<slug>`): characters MCP refuses as `_`, at most 64, unique ignoring case (a clash gets `_2`...).
 */
export function toolNames(ir: IR): Map<string, string> {
  // The wait tool's name is the server's own when the description has jobs to wait for.
  const taken = new Set<string>(ir.operations.some((op) => isPollableJob(ir, op)) ? [WAIT_TOOL] : []);
  const names = new Map<string, string>();
  const claim = (key: string, wanted: string, fallback: string) => {
    const base = wanted.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || fallback.slice(0, 64);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 64 - `_${n}`.length)}_${n}`;
    taken.add(name.toLowerCase());
    names.set(key, name);
  };
  for (const op of ir.operations) {
    if (op.variants)
      for (const p of op.variants.pipelines) claim(`${op.id}\u0000${p.slug}`, `${op.id}_${p.slug}`, `${op.identifier}_${p.identifier}`);
    else claim(op.id, op.id, op.identifier);
  }
  return names;
}

/** Names of the schemas a schema refers to, directly or through others, in first-use order. */
function referenced(ir: IR, roots: readonly Schema[]): string[] {
  const byName = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const seen = new Set<string>();
  const visit = (s: Schema): void => {
    switch (s.kind) {
      case "ref":
        if (!seen.has(s.name)) {
          seen.add(s.name);
          const target = byName.get(s.name);
          if (target) visit(target);
        }
        return;
      case "array":
        visit(s.items);
        return;
      case "object":
        for (const p of s.properties) visit(p.schema);
        if (typeof s.additionalProperties !== "boolean") visit(s.additionalProperties);
        return;
      case "union":
      case "intersection":
        for (const m of s.members) visit(m);
        return;
      case "json-text":
        visit(s.value);
        return;
      default:
        return;
    }
  };
  for (const r of roots) visit(r);
  return [...seen];
}

function withDefs(ir: IR, schema: JsonSchema, roots: readonly Schema[], options: JsonSchemaOptions = {}): JsonSchema {
  const names = referenced(ir, roots);
  if (names.length === 0) return schema;
  const byName = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  return { ...schema, $defs: Object.fromEntries(names.map((n) => [n, toJsonSchema(byName.get(n)!, "#/$defs/", options)])) };
}

/**
 * An output schema that takes more than the description shows: `additionalProperties: false` dropped everywhere,
 * since an MCP client refuses a result its output schema rejects, and a service may add answer fields before its
 * description says so. Input schemas stay exact.
 */
function opened(schema: unknown): JsonSchema {
  const open = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(open);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k, v]) => !(k === "additionalProperties" && v === false))
        .map(([k, v]) => [k, open(v)]),
    );
  };
  return open(schema) as JsonSchema;
}

/** A schema with its top-level references followed. */
function resolved(ir: IR, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.kind === "ref" && i < 64; i++) {
    const name: string = s.name;
    const next = ir.schemas.find((n) => n.name === name)?.schema;
    if (!next) break;
    s = next;
  }
  return s;
}

/** The keys of the arguments: a parameter's name, unless another argument has it (then `<in>_<name>`, then a number). */
function argumentsOf(op: Operation, body: boolean): ToolArgument[] {
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const wanted = [
    ...params.map((p) => ({ name: p.name, in: p.in as ArgumentPlace })),
    ...(body ? [{ name: "body", in: "body" as const }] : []),
  ];
  const count = new Map<string, number>();
  for (const w of wanted) count.set(w.name, (count.get(w.name) ?? 0) + 1);
  const taken = new Set<string>();
  return wanted.map((w) => {
    const base = (count.get(w.name) ?? 0) > 1 && w.in !== "body" ? `${w.in}_${w.name}` : w.name;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    return { key, name: w.name, in: w.in };
  });
}

/** The text a tool's description is fitted from: summary, description, then method and path. */
function descriptionText(op: Operation): string {
  const parts = [op.summary, op.description].map((t) => t?.trim() ?? "").filter((t) => t !== "");
  const unique = parts.filter((t, i) => parts.indexOf(t) === i);
  return [...unique, `${op.method.toUpperCase()} ${op.path}`].join("\n\n");
}

/** The success answer's schema with its top-level reference followed, when it is an object or an allOf of objects (MCP's structured content is an object). */
function outputOf(ir: IR, op: Operation): Schema | undefined {
  if (isBinaryResponse(op)) return undefined;
  const ok = op.responses.find((r) => /^2/.test(r.status));
  const json = ok?.contents.find((c) => c.encoding === "json");
  if (!json) return undefined;
  const schema = resolved(ir, json.schema);
  const objectLike = (s: Schema): boolean => {
    const r = resolved(ir, s);
    return r.kind === "object" || (r.kind === "intersection" && r.members.every(objectLike));
  };
  return objectLike(schema) ? schema : undefined;
}

/**
 * A pipeline's body: its variant's request, or any of its variants', JSON-text fields (named schemas too) as their
 * structured value, which the runtime encodes.
 */
function pipelineBody(ir: IR, pipeline: Pipeline): Schema {
  const decoded = pipeline.variants.map(
    (v): Schema => ({
      ...v.request,
      properties: v.request.properties.map((p) => {
        const text = resolved(ir, p.schema);
        if (text.kind !== "json-text") return p;
        const description = p.schema.description ?? text.description;
        return { ...p, schema: { ...text.value, ...(description !== undefined && { description }) } };
      }),
    }),
  );
  return decoded.length === 1 ? decoded[0]! : { kind: "union", mode: "anyOf", members: decoded };
}

export function toolData(ir: IR): ToolData[] {
  const names = toolNames(ir);
  return ir.operations.flatMap((op): ToolData[] => {
    const tool = operationTool(ir, op, names.get(op.id) ?? op.id);
    if (!op.variants) return [tool];
    const selector = op.variants.selector;
    return op.variants.pipelines.map((p): ToolData => {
      const body = pipelineBody(ir, p);
      const base = operationTool(
        ir,
        { ...op, parameters: { ...op.parameters, path: op.parameters.path.filter((x) => x.name !== selector) } },
        names.get(`${op.id}\u0000${p.slug}`)!,
        body,
      );
      const title = [op.summary?.trim(), p.summary?.trim() ?? p.slug].filter(Boolean).join(": ");
      const text = [
        p.summary,
        p.description,
        ...p.variants.map((v) => (v.summary ? `${v.name}: ${v.summary}` : undefined)),
        op.summary,
        op.description,
      ]
        .map((t) => t?.trim() ?? "")
        .filter((t, i, all) => t !== "" && all.indexOf(t) === i);
      const jsonStrings = [...new Set(p.variants.flatMap((v) => v.jsonStrings))];
      const job = isPollableJob(ir, op);
      const payloads = p.variants.flatMap((v) => (v.payload ? [v.payload] : []));
      const payload: Schema | undefined =
        payloads.length === 0 ? undefined : payloads.length === 1 ? payloads[0] : { kind: "union", mode: "anyOf", members: payloads };
      const jobOutput = jobOutputSchema(payload ? toJsonSchema(payload, "#/$defs/") : {});
      // The argument of the wait's length, named so that no argument of the operation has its name.
      let waitArgument = "wait_seconds";
      for (let n = 2; base.arguments.some((a) => a.key === waitArgument); n++) waitArgument = `wait_seconds_${n}`;
      const inputSchema = {
        ...base.inputSchema,
        properties: { ...(base.inputSchema.properties as Record<string, unknown>), [waitArgument]: waitSecondsSchema() },
      };
      return {
        ...base,
        ...(job && {
          send: "job" as const,
          outputSchema: opened(withDefs(ir, jobOutput, payload ? [payload] : [])),
          inputSchema,
          waitArgument,
        }),
        title,
        description: fitDescription([...text, `${op.method.toUpperCase()} ${op.path.replace(`{${selector}}`, p.slug)}`].join("\n\n")),
        annotations: { ...base.annotations, title },
        pipeline: { parameter: selector, slug: p.slug },
        ...(jsonStrings.length > 0 && { jsonStrings }),
      };
    });
  });
}

/** The tool of an operation; `bodySchema` replaces the request body's schema (a pipeline's). */
function operationTool(ir: IR, op: Operation, name: string, bodySchema?: Schema): ToolData {
  {
    const found = requestBodyContent(op);
    const content = found && bodySchema ? { ...found, schema: bodySchema } : found;
    const args = argumentsOf(op, content !== undefined);
    const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const roots: Schema[] = [];
    let files: (string | null)[][] = [];
    args.forEach((arg, i) => {
      if (arg.in === "body") {
        // A body sent as it is, other than text, is a file: the runtime takes text or a file for it.
        const raw = rawBodyMediaType(op) !== undefined && resolved(ir, content!.schema).kind !== "string";
        properties[arg.key] = raw
          ? fileArgument(content!.mediaType, op.requestBody?.description)
          : {
              ...toJsonSchema(content!.schema, "#/$defs/", INPUT),
              ...(op.requestBody?.description !== undefined && { description: op.requestBody.description }),
            };
        if (!raw) roots.push(content!.schema);
        files = (raw ? [[]] : filePaths(ir, content!.schema)).map((path) => [arg.key, ...path]);
        if (op.requestBody?.required) required.push(arg.key);
        return;
      }
      const p = params[i]!;
      const schema = toJsonSchema(p.schema, "#/$defs/", INPUT);
      properties[arg.key] = {
        ...schema,
        ...(p.description !== undefined && schema.description === undefined && { description: p.description }),
      };
      roots.push(p.schema);
      if (p.required) required.push(arg.key);
    });
    const inputSchema = withDefs(
      ir,
      { type: "object", properties, ...(required.length > 0 && { required }), additionalProperties: false },
      roots,
      INPUT,
    );
    const output = outputOf(ir, op);
    const readOnly = op.method === "get" || op.method === "head";
    const title = op.summary?.trim();
    return {
      name,
      ...(title && { title }),
      description: fitDescription(descriptionText(op)),
      inputSchema,
      ...(output && { outputSchema: opened(withDefs(ir, { type: "object", ...toJsonSchema(output, "#/$defs/") }, [output])) }),
      annotations: {
        ...(title && { title }),
        readOnlyHint: readOnly,
        ...(!readOnly && { destructiveHint: op.method === "delete" }),
        idempotentHint: op.idempotent,
        openWorldHint: true,
      },
      operationId: op.id,
      arguments: args,
      send: isBinaryResponse(op) ? "download" : content ? "body" : op.job?.role === "submit" ? "submission" : "call",
      ...(files.length > 0 && { files }),
    };
  }
}
