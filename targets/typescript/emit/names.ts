import { pascalCase } from "../../../generator/ir/names.js";
import { errorClassOfWords, errorCodeWordsOf } from "../../../generator/emit/error-names.js";
import { MAX_FILE_NAME, operationFileNames } from "../../../generator/emit/operation-files.js";
import type { IR, Operation, Pipeline, Variant } from "../../../generator/ir/types.js";
import { RUNTIME_EXPORTS } from "./runtime-exports.js";

/**
 * The names the generated TypeScript declares that the emitters do not make from the description: the index,
 * errors, model, requests and webhooks modules' own exports, and what types.ts exports.
 */
export const TS_OUTPUT_NAMES: readonly string[] = [
  "createClient",
  "errorClasses",
  "ErrorCode",
  "serviceModel",
  "RELEASE",
  "DESCRIPTION_HASH",
  "webhookEventTypes",
  "subscriptionRules",
  "JobRequests",
  "UnknownFields",
  "ExactBody",
  "JobPayloadOf",
  "WebhookEvent",
  "WebhookEventType",
  "verify",
  "webhookSigning",
  "signWebhook",
  "ReceiverOptions",
  "WebhookEventCallbacks",
  "createWebhookHandler",
  "createNodeWebhookHandler",
  "createWebhookProcessor",
  // Local names of the webhooks module's imports.
  "EventCallbacks",
  "nodeHandler",
  "webHandler",
  "processor",
  "signWith",
  "IncomingMessage",
  "ServerResponse",
  "components",
  "paths",
  "webhooks",
  "operations",
  "operationSpecs",
  "$defs",
];

/** Global names the generated code uses; a declaration of the same name would shadow them. */
const TS_GLOBALS = [
  "Array",
  "Error",
  "Exclude",
  "Extract",
  "Object",
  "Omit",
  "Promise",
  "Readonly",
  "Record",
  "String",
  "Uint8Array",
  "undefined",
  "globalThis",
];

/** Words that cannot be declared as a function, class, type or const name. */
const TS_KEYWORDS = (
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import " +
  "in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private " +
  "protected public static yield await any boolean number string symbol type object never unknown bigint arguments eval"
).split(" ");

/** Bound of a file name made from an identifier (well under every file system's 255 bytes). */
export { MAX_FILE_NAME };

export interface TsNames {
  /** The function of an operation (job operations: the submit-and-wait function). */
  operation(op: Operation): string;
  /** The start function of a job operation. */
  start(op: Operation): string;
  /** The auto-paging function of an operation that pages (`x-paperoffice-pagination`). */
  paginate(op: Operation): string;
  /** The type of one item of such an operation's pages. */
  item(op: Operation): string;
  params(op: Operation): string;
  body(op: Operation): string;
  response(op: Operation): string;
  /** The OperationSpec constant of specs.ts (operation-specs.ts's operationSpecs holds them all). */
  spec(op: Operation): string;
  errorClass(code: string): string;
  /**
   * The union type of the error codes an operation's group may answer with (errors.ts), or undefined when the
   * operation states none. Operations of one tag with the same codes share a union.
   */
  errorUnion(op: Operation): string | undefined;
  /** Every error-code union, in the order errors.ts declares them, with its codes. */
  errorUnions(): readonly { readonly name: string; readonly codes: readonly string[] }[];
  /** The alias of a named schema in schemas.ts. */
  schema(name: string): string;
  variantRequest(pipeline: Pipeline, variant: Variant): string;
  pipelineRequest(pipeline: Pipeline): string;
  /** The type of the fields every variant of a job operation shares, declared once. */
  commonFields(op: Operation): string;
  payload(pipeline: Pipeline): string;
  /** A file name (no extension) for an operation's files: the operation's name, bounded, no separators. */
  fileName(op: Operation): string;
}

const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Plans every name of the generated TypeScript at once, before anything is printed: against the runtime's exports,
 * the output's own names, globals and keywords, and against each other. Operations come first (the IR already gave
 * an exact operationId its own name), then their derived types, error classes, job types, and last the private
 * constants. A taken name gets the lowest free numeric suffix; the order is fixed, so the result is deterministic.
 */
export function planTsNames(ir: IR): TsNames {
  const taken = new Set<string>([...RUNTIME_EXPORTS, ...TS_OUTPUT_NAMES, ...TS_GLOBALS, ...TS_KEYWORDS]);
  const claim = (base: string): string => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
    taken.add(id);
    return id;
  };
  const byId = <T>(f: (op: Operation) => T) => new Map(ir.operations.map((op) => [op.id, f(op)] as const));
  // An operation named as a keyword keeps its word with a trailing underscore (`delete_`), as TypeScript users write it.
  const operation = byId((op) => claim(TS_KEYWORDS.includes(op.identifier) ? `${op.identifier}_` : op.identifier));
  const start = new Map(ir.operations.filter((op) => op.variants).map((op) => [op.id, claim(`start${upper(operation.get(op.id)!)}`)]));
  const paged = ir.operations.filter((op) => op.pagination !== undefined);
  const paginate = new Map(paged.map((op) => [op.id, claim(`paginate${upper(operation.get(op.id)!)}`)]));
  // A code's class is made from its words as in every language (generator/emit/error-names.ts), in the codes' order.
  const errors = new Map([...errorCodeWordsOf(ir)].map(([code, words]) => [code, claim(errorClassOfWords(words))] as const));
  const unions = errorGroups(ir).map((g) => ({ ...g, name: claim(g.base) }));
  const variants = new Map<string, string>();
  const pipelines = new Map<string, string>();
  const payloads = new Map<string, string>();
  const common = new Map<string, string>();
  for (const op of ir.operations) {
    if (op.variants) common.set(op.id, claim(`${upper(operation.get(op.id)!)}CommonFields`));
    for (const p of op.variants?.pipelines ?? []) {
      const [only, ...others] = p.variants;
      if (only !== undefined && others.length === 0 && only.discriminator === undefined) {
        // A pipeline's one undiscriminated variant is the pipeline's body: one type, `<Pipeline>Request`, not also
        // `<Pipeline>DefaultRequest`.
        const name = claim(`${p.identifier}Request`);
        variants.set(`${op.id}\n${p.slug}\n${only.name}`, name);
        pipelines.set(`${op.id}\n${p.slug}`, name);
      } else {
        for (const v of p.variants) variants.set(`${op.id}\n${p.slug}\n${v.name}`, claim(`${v.identifier}Request`));
        pipelines.set(`${op.id}\n${p.slug}`, claim(`${p.identifier}Request`));
      }
      payloads.set(`${op.id}\n${p.slug}`, claim(`${p.identifier}PayloadOf`));
    }
  }
  const derived = (suffix: string) => byId((op) => claim(`${upper(operation.get(op.id)!)}${suffix}`));
  const response = derived("Response");
  const params = derived("Params");
  const body = derived("Body");
  const item = new Map(paged.map((op) => [op.id, claim(`${upper(operation.get(op.id)!)}Item`)]));
  // A schema whose name another export already has (an error class, a variant's request type) is `<Name>Schema`.
  const schemas = new Map(
    ir.schemas.map((s) => {
      const free = (id: string) => !taken.has(id);
      const name = free(s.identifier) ? s.identifier : free(`${s.identifier}Schema`) ? `${s.identifier}Schema` : s.identifier;
      return [s.name, claim(name)] as const;
    }),
  );
  const spec = byId((op) => claim(`${operation.get(op.id)!}Operation`));
  const files = operationFileNames(ir.operations, operation);

  const pipelineOf = (p: Pipeline): string => {
    const op = ir.operations.find((o) => o.variants?.pipelines.includes(p));
    return `${op?.id}\n${p.slug}`;
  };
  const get = (map: ReadonlyMap<string, string>, key: string, what: string): string => {
    const name = map.get(key);
    if (name === undefined) throw new Error(`no name planned for ${what} ${JSON.stringify(key)}`);
    return name;
  };
  return {
    operation: (op) => get(operation, op.id, "operation"),
    start: (op) => get(start, op.id, "job operation"),
    paginate: (op) => get(paginate, op.id, "paged operation"),
    item: (op) => get(item, op.id, "paged operation"),
    params: (op) => get(params, op.id, "operation"),
    body: (op) => get(body, op.id, "operation"),
    response: (op) => get(response, op.id, "operation"),
    spec: (op) => get(spec, op.id, "operation"),
    errorClass: (code) => get(errors, code, "error code"),
    errorUnion: (op) => unions.find((u) => u.operations.includes(op.id))?.name,
    errorUnions: () => unions.map(({ name, codes }) => ({ name, codes })),
    schema: (name) => get(schemas, name, "schema"),
    variantRequest: (p, v) => get(variants, `${pipelineOf(p)}\n${v.name}`, "variant"),
    pipelineRequest: (p) => get(pipelines, pipelineOf(p), "pipeline"),
    commonFields: (op) => get(common, op.id, "job operation"),
    payload: (p) => get(payloads, pipelineOf(p), "pipeline"),
    fileName: (op) => get(files, op.id, "operation"),
  };
}

interface ErrorGroup {
  /** The name before it is claimed. */
  readonly base: string;
  readonly codes: readonly string[];
  readonly operations: readonly string[];
}

/**
 * The error-code groups: operations of the same first tag that state the same codes. In each tag the group of most
 * operations is `<Tag>ErrorCode`; another group is named after its first operation (`<Operation>ErrorCode`), as is
 * every group of operations without a tag.
 */
function errorGroups(ir: IR): ErrorGroup[] {
  const groups = new Map<string, { tag: string | undefined; codes: string[]; operations: Operation[] }>();
  for (const op of ir.operations) {
    if (op.errorCodes.length === 0) continue;
    const codes = [...new Set(op.errorCodes)].sort();
    const tag = op.tags[0];
    const key = JSON.stringify([tag ?? null, codes]);
    const group = groups.get(key) ?? { tag, codes, operations: [] };
    group.operations.push(op);
    groups.set(key, group);
  }
  const all = [...groups.values()];
  const largest = new Map<string, (typeof all)[number]>();
  for (const g of all) {
    if (g.tag === undefined) continue;
    const best = largest.get(g.tag);
    if (best === undefined || g.operations.length > best.operations.length) largest.set(g.tag, g);
  }
  return all.map((g) => ({
    base:
      g.tag !== undefined && largest.get(g.tag) === g
        ? `${pascalCase(g.tag)}ErrorCode`
        : `${pascalCase(g.operations[0]!.identifier)}ErrorCode`,
    codes: g.codes,
    operations: g.operations.map((o) => o.id),
  }));
}

/**
 * File names from the planned operation names: identifiers have no separator and no dot; a long one is cut and
 * keeps a hash of the operationId, and names differing only in case (one file on some file systems) get a suffix.
 */
const planned = new WeakMap<IR, TsNames>();

/** The planned names of an IR, computed once per IR so that every emitter of a run agrees. */
export function tsNames(ir: IR): TsNames {
  let names = planned.get(ir);
  if (!names) {
    names = planTsNames(ir);
    planned.set(ir, names);
  }
  return names;
}
