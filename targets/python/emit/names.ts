import { errorClassOfWords, errorCodeWordsOf } from "../../../generator/emit/error-names.js";
import type { IR, Operation, Parameter, Pipeline, Variant } from "../../../generator/ir/types.js";
import { memoByText } from "../../../generator/memo.js";
import type { PyType } from "./py-type.js";

/**
 * The names the Python templates (templates/python/) declare or import, by module. A generated name that equals
 * one of them would shadow it; test/generator/names.test.ts keeps these lists equal to what the templates declare.
 */

export const PY_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is " +
    "lambda nonlocal not or pass raise return try while with yield match case type _"
  ).split(" "),
);

/** Modules and names client.py (and aio.py, from the same template) import, by the name they are bound to. */
export const PY_CLIENT_IMPORTS: readonly string[] = [
  "httpx",
  "_logging",
  "os",
  "functools",
  "_t",
  "_te",
  "_rt",
  "_m",
  "_md",
  "_ty",
  "ERROR_CLASSES",
];

/** The keywords of the runtime's RequestOptions, which every operation method takes as `**options`. */
export const PY_REQUEST_OPTIONS: readonly string[] = [
  "extra_headers",
  "extra_query",
  "extra_body",
  "timeout",
  "max_retries",
  "deadline",
  "idempotency_key",
];

/**
 * What an operation method's body refers to besides its parameters, and the keywords of its `**options`: a
 * parameter of that name would shadow or collide with it.
 */
export const PY_METHOD_BODY_NAMES: readonly string[] = ["self", "body", "options", "result", ...PY_REQUEST_OPTIONS, ...PY_CLIENT_IMPORTS];

/** Public members of the generated clients that an operation method must not replace. */
export const PY_CLIENT_MEMBERS: readonly string[] = [
  "aclose",
  "base_url",
  "close",
  "download",
  "download_to",
  "runtime",
  "start_job",
  "submit_job",
  "wait_job",
  "with_options",
  "with_raw_response",
];

/** Names errors.py declares or imports besides the generated error classes. */
export const PY_ERRORS_NAMES: readonly string[] = [
  "APIConnectionError",
  "AuthenticationError",
  "BadRequestError",
  "ConflictError",
  "DeadlineExceededError",
  "ERROR_CLASSES",
  "InternalServerError",
  "JobFailedError",
  "JobMayExistError",
  "MalformedResponseError",
  "MayHaveBeenProcessedError",
  "MissingCredentialsError",
  "NotFoundError",
  "PermissionDeniedError",
  "RateLimitError",
  "ResponseBodyError",
  "SdkError",
  "ServiceError",
  "UnprocessableEntityError",
  "WebhookPayloadError",
  "WebhookSignatureError",
  "WebhookStaleError",
  "WebhookVerificationError",
  "__all__",
  "_t",
];

/** Names the types and models packages declare or import besides the generated types. */
export const PY_TYPES_NAMES: readonly string[] = [
  "BaseModel",
  "Field",
  "FileInput",
  "FileUpload",
  "JsonObject",
  "JsonValue",
  "NotRequired",
  "WebhookEvent",
  "__all__",
  "_t",
  "_rt",
  // Imported by the models modules: a model of that name would replace the import.
  "ABSENT",
  "TypeAliasType",
  // Imported by __init__.py and client.py beside the types; kept distinct so that a reader is never misled.
  "AsyncClient",
  "Client",
  "JobResult",
];

/**
 * Builtins the generated method bodies and casts use (`_t.cast(list[...], ...)`, `frozenset(...)`): a parameter of
 * that name would shadow them inside the method.
 */
export const PY_BODY_BUILTINS: readonly string[] = [
  "bool",
  "bytes",
  "dict",
  "float",
  "frozenset",
  "int",
  "isinstance",
  "list",
  "object",
  "str",
  "tuple",
];

/** Every builtin a PyType prints besides None, once each: a new builtin kind without an entry here fails to compile. */
const TYPE_BUILTINS = { bool: true, float: true, int: true, str: true } as const satisfies Record<
  Exclude<Extract<PyType, { kind: "builtin" }>["name"], "None">,
  true
>;

/**
 * Builtins the generated annotations name: a PyType's (`str | None`), `list[...]` and `dict[str, ...]`. A class
 * attribute of that name shadows the builtin for every annotation of its class: pydantic evaluates a model's
 * annotations in the class namespace (a field `list: ... = None` makes `list[str]` `None[str]`, and the package
 * fails at import), and type checkers resolve them there too.
 */
export const PY_ANNOTATION_BUILTINS: readonly string[] = [...Object.keys(TYPE_BUILTINS), "dict", "list"].sort();

/** Keywords that look like PascalCase names: a schema called `none` would otherwise declare `class None`. */
const PY_PASCAL_KEYWORDS = ["None", "True", "False"];

/**
 * snake_case of a camelCase or PascalCase identifier or of a slug; never empty, never a keyword or soft keyword. Kept
 * for texts seen before (generator/memo.ts): a large description names the same parameters thousands of times.
 */
export const snakeCase: (text: string) => string = memoByText(snakeCaseOf);

function snakeCaseOf(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  const id = s === "" ? "unnamed" : /^[0-9]/.test(s) ? `n_${s}` : s;
  return PY_KEYWORDS.has(id) ? `${id}_` : id;
}

/**
 * What the clients' annotations name besides their own types: builtins (also `tuple[float, float]`, `str | bytes`,
 * `_t.Mapping[str, object]`) and the modules client.py imports.
 */
const CLIENT_ANNOTATION_NAMES: ReadonlySet<string> = new Set([...PY_ANNOTATION_BUILTINS, "bytes", "object", "tuple", ...PY_CLIENT_IMPORTS]);

/** Attributes of pydantic's BaseModel a field must not shadow. */
const MODEL_ATTRIBUTES: ReadonlySet<string> = new Set([
  "construct",
  "copy",
  "dict",
  "from_orm",
  "json",
  "parse_file",
  "parse_obj",
  "parse_raw",
  "schema",
  "schema_json",
  "update_forward_refs",
  "validate",
]);

/**
 * Names a model's field must not take, because the class's annotations or defaults use them: builtins, what the
 * models modules import or declare (`Field(...)`, `ABSENT`, `JsonValue`...), BaseModel's attributes.
 */
const FIELD_RESERVED: ReadonlySet<string> = new Set([...PY_ANNOTATION_BUILTINS, ...PY_TYPES_NAMES, ...MODEL_ATTRIBUTES]);

const isPyIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PY_KEYWORDS.has(name);

/**
 * The attribute name of a JSON property in a model: the key itself when Python and pydantic accept it and it
 * shadows nothing the class uses (`typeNames`: the models package's types), else a snake_case form (the key
 * stays the wire name, as the field's alias).
 */
export function pyFieldName(key: string, taken: ReadonlySet<string>, typeNames: ReadonlySet<string>): string {
  const usable = (name: string) =>
    isPyIdentifier(name) &&
    !name.startsWith("_") &&
    !name.startsWith("model_") &&
    !FIELD_RESERVED.has(name) &&
    !typeNames.has(name) &&
    !taken.has(name);
  if (usable(key)) return key;
  let base = snakeCase(key.replace(/[^A-Za-z0-9]+/g, "_"))
    .replace(/^_+/, "")
    .replace(/_+$/, "");
  if (base === "") base = "field";
  if (/^[0-9]/.test(base)) base = `field_${base}`;
  if (base.startsWith("model_")) base = `field_${base}`;
  let name = base;
  for (let n = 1; !usable(name); n++) name = n === 1 ? `${base}_` : `${base}_${n}`;
  return name;
}

export interface PyNames {
  /** The client method of an operation. */
  method(op: Operation): string;
  /** The submit-and-wait method of a pipeline. */
  submit(pipeline: Pipeline): string;
  /** The auto-paging method of an operation that pages (`x-paperoffice-pagination`). */
  paginate(op: Operation): string;
  /** The keyword (or positional) argument of a parameter of an operation. */
  param(op: Operation, param: Parameter): string;
  errorClass(code: string): string;
  /** The type of a named schema. */
  schemaType(name: string): string;
  /** Whether a named schema is the request type of a variant (declared once, as the variant's). */
  sharedWithVariant(name: string): boolean;
  variantType(pipeline: Pipeline, variant: Variant): string;
  pipelineType(pipeline: Pipeline): string;
  /** A further type name (an inline object's), clear of every planned one and of those taken before. */
  take(base: string): string;
}

/** A claimer: the base if free, else the lowest free numeric suffix; `fold` compares names case-insensitively. */
function claimer(reserved: Iterable<string>, fold: boolean, join = ""): (base: string) => string {
  const key = (s: string) => (fold ? s.toLowerCase() : s);
  const taken = new Set([...reserved].map(key));
  return (base) => {
    let id = base;
    for (let n = 2; taken.has(key(id)); n++) id = `${base}${join}${n}`;
    taken.add(key(id));
    return id;
  };
}

/**
 * Keys in claiming order: those whose text already is their name first (an exact operationId or parameter name
 * keeps it), then the others, each group in the given order, which is the description's.
 */
function exactFirst<T>(items: readonly T[], text: (item: T) => string, make: (item: T) => string): T[] {
  return [...items.filter((i) => make(i) === text(i)), ...items.filter((i) => make(i) !== text(i))];
}

/**
 * Plans every name of the generated Python at once, before anything is printed: types against the types package's
 * own names and keywords, methods against the clients' members, error classes against errors.py's names, arguments
 * against what a method body uses (the client's imported modules, builtins in casts). Exact names come first; a
 * taken name gets the lowest free suffix, in a fixed order, so the result is deterministic.
 */
export function planPythonNames(ir: IR): PyNames {
  // Types: case-insensitively distinct (module files are split by name); variant request types first, a named
  // request schema of the same name shares it.
  const type = claimer([...PY_TYPES_NAMES, ...PY_PASCAL_KEYWORDS], true);
  // The clients serve the job operation's pipelines (the first operation with variants).
  const pipelines: readonly Pipeline[] = ir.operations.find((o) => o.variants !== undefined)?.variants?.pipelines ?? [];
  const variants = new Map<Variant, string>();
  const shared = new Map<string, string>();
  for (const pipeline of pipelines) {
    for (const variant of pipeline.variants) {
      const name = type(`${variant.identifier}Request`);
      variants.set(variant, name);
      const schemaId = ir.schemas.find((s) => s.name === variant.requestSchema)?.identifier;
      if (schemaId === name && !shared.has(variant.requestSchema)) shared.set(variant.requestSchema, name);
    }
  }
  // A schema named as a Python constant (None, True, False) keeps its word with a Type suffix, as a class name.
  const typeBase = (id: string) => (PY_PASCAL_KEYWORDS.includes(id) ? `${id}Type` : id);
  const schemas = new Map(ir.schemas.map((s) => [s.name, shared.get(s.name) ?? type(typeBase(s.identifier))]));
  const pipelineTypes = new Map(pipelines.map((p) => [p, type(`${p.identifier}Request`)]));

  const get = <K>(map: ReadonlyMap<K, string>, key: K, what: string): string => {
    const name = map.get(key);
    if (name === undefined) throw new Error(`no Python name planned for ${what}`);
    return name;
  };
  const method = claimer(PY_CLIENT_MEMBERS, false, "_");
  const methods = new Map<Operation, string>();
  // An operationId that is a snake_case identifier is its method's name (the IR's camelCase identifier may carry a
  // suffix for another operation's sake); the others are made from the identifier.
  // A method named like a builtin or a module the clients' annotations use gets a trailing underscore, as a
  // keyword does: type checkers would read `str` in the class's annotations as the method.
  const methodBase = (o: Operation) => {
    const id = snakeCase(o.id) === o.id ? o.id : snakeCase(o.identifier);
    return CLIENT_ANNOTATION_NAMES.has(id) ? `${id}_` : id;
  };
  for (const op of exactFirst(ir.operations, (o) => o.id, methodBase)) methods.set(op, method(methodBase(op)));
  const submits = new Map(pipelines.map((p) => [p, method(`submit_${snakeCase(p.slug)}`)]));
  const paginates = new Map(
    ir.operations.filter((op) => op.pagination !== undefined).map((op) => [op, method(`paginate_${get(methods, op, op.id)}`)]),
  );

  const error = claimer(PY_ERRORS_NAMES, false);
  const errors = new Map<string, string>();
  // A code's class is made from its words as in every language (generator/emit/error-names.ts), in the codes' order.
  for (const [code, words] of errorCodeWordsOf(ir)) errors.set(code, error(errorClassOfWords(words)));

  const params = new Map<Operation, Map<Parameter, string>>();
  for (const op of ir.operations) {
    const all = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
    const taken = new Set<string>([...PY_METHOD_BODY_NAMES, ...PY_BODY_BUILTINS]);
    const names = new Map<Parameter, string>();
    for (const p of exactFirst(
      all,
      (p) => p.name,
      (p) => snakeCase(p.name),
    )) {
      let id = snakeCase(p.name);
      while (taken.has(id)) id = `${id}_`;
      taken.add(id);
      names.set(p, id);
    }
    params.set(op, names);
  }

  return {
    method: (op) => get(methods, op, `operation ${op.id}`),
    submit: (p) => get(submits, p, `pipeline ${p.slug}`),
    paginate: (op) => get(paginates, op, `paged operation ${op.id}`),
    param: (op, p) => get(params.get(op) ?? new Map(), p, `parameter ${p.name} of ${op.id}`),
    errorClass: (code) => get(errors, code, `error code ${code}`),
    schemaType: (name) => get(schemas, name, `schema ${name}`),
    sharedWithVariant: (name) => shared.has(name),
    variantType: (_p, v) => get(variants, v, `variant ${v.name}`),
    pipelineType: (p) => get(pipelineTypes, p, `pipeline ${p.slug}`),
    take: type,
  };
}
