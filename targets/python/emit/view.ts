import { flattenObject } from "../../../generator/ir/flatten.js";
import { pascalCase } from "../../../generator/ir/names.js";
import type {
  IR,
  JobDownload,
  JobPoll,
  JobSubmit,
  MediaContent,
  Operation,
  Pagination,
  Pipeline,
  Schema,
  Server,
} from "../../../generator/ir/types.js";
import { pyComment, pyDocInline, pyDocstring, pyLiteralText, pyString } from "./escape.js";
import { PY_KEYWORDS, type PyNames, planPythonNames, snakeCase } from "./names.js";
import { isPyRef, printPyType, type PyType, pyBuiltin, pyOptional, pyRef, pyTypeExpr, pyTypeRefs, pyUnion } from "./py-type.js";
import { type Decl, TypeScope } from "./type-scope.js";
import { BASE_MODULE, paramDecl, paramName, paramType, reexports, typesModules, valueExpr } from "./type-modules.js";
import { modelsModules } from "./models.js";
import { type DocEntry, type MethodSections, methodSections } from "./doc-sections.js";
import { call, defLine, dict, flat, kw, type PyArg, type PyExpr, statement, sub, tuple } from "./pyfmt.js";
import { releaseIdProblem, releaseToVersion } from "../../../generator/releases/version.js";
import type { LanguageView } from "../../../generator/emit/templated.js";
import { requestIdHeader } from "../../../generator/emit/request-id.js";
import { envNames } from "../../../generator/emit/env-names.js";
import { readmeAuth, versionLabel, versionWord } from "../../../generator/emit/readme-facts.js";
import { codeStatusClass, errorCodeWordsOf, SERVICE_ERROR } from "../../../generator/emit/error-names.js";
import { requestBodyContent, sentAgainAfterFailure } from "../../../generator/emit/operation-files.js";
import { itemSchemaOf } from "../../../generator/emit/pagination.js";
import { exampleBody, type FixtureCase, fixtureCases } from "../../../generator/emit/fixtures/index.js";
import type { FixtureValue } from "../../../generator/emit/fixtures/sample.js";

/** Names of the Python package; each defaults to one derived from the description's title. */
export interface PythonOptions {
  /** The name pip installs (PEP 508), for example `document-automation-service`. */
  readonly distribution?: string;
  /** The import name, a Python identifier, for example `document_automation_service`. */
  readonly module?: string;
}

const DISTRIBUTION = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** Names that would shadow a standard-library module the package itself imports. */
const TAKEN_MODULES = new Set([
  "asyncio",
  "email",
  "http",
  "json",
  "os",
  "random",
  "re",
  "socket",
  "ssl",
  "string",
  "tempfile",
  "threading",
  "time",
  "types",
  "typing",
  "urllib",
  "uuid",
]);

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * The README's credentials: comment lines naming what the description's security schemes ask for, and the client's
 * arguments (the base address as a keyword, then the first kind of credential the schemes declare).
 */
function readmeCredentials(ir: IR, baseUrl: string): { authComments: string[]; clientArgs: string } {
  const auth = readmeAuth(ir);
  const token = pyComment(envNames(ir).token);
  const comments: string[] = [];
  if (auth.none) comments.push("The description declares no security scheme: the client sends no credentials.");
  if (auth.bearer) comments.push(`A bearer token: token=, by default from the environment variable ${token}.`);
  if (auth.apiKeys.length > 0)
    comments.push(pyComment(`An API key (${auth.apiKeys.join(", ")}): api_key=, else token= or ${envNames(ir).token} serves as the key.`));
  if (auth.basic) comments.push("HTTP basic authentication: username= and password=.");
  const credential = auth.bearer
    ? ['token="<token>"']
    : auth.apiKeys.length > 0
      ? ['api_key="<API key>"']
      : auth.basic
        ? ['username="<user name>"', 'password="<password>"']
        : [];
  return { authComments: comments, clientArgs: [...credential, `base_url=${baseUrl}`].join(", ") };
}

/** The distribution and module names: the options', checked, else derived from the title. */
export function pythonNames(title: string, options: PythonOptions = {}): { distribution: string; module: string } {
  const words = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .filter((w) => w !== "");
  const derived = words.length === 0 ? "service_client" : /^[0-9]/.test(words[0]!) ? `sdk_${words.join("_")}` : words.join("_");
  const module = options.module ?? (KEYWORDS.has(derived) || TAKEN_MODULES.has(derived) ? `${derived}_client` : derived);
  const distribution = options.distribution ?? module.replaceAll("_", "-");
  if (!isIdentifier(module) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(module) || TAKEN_MODULES.has(module)) {
    throw new Error(
      `python.module ${JSON.stringify(module)} is not a usable Python module name (an identifier, not a keyword, not a standard module the package imports)`,
    );
  }
  if (!DISTRIBUTION.test(distribution)) {
    throw new Error(
      `python.distribution ${JSON.stringify(distribution)} is not a valid distribution name (letters, digits, ".", "_", "-"; a letter or digit at both ends)`,
    );
  }
  return { distribution, module };
}

/** The release as a PEP 440 version: a release id maps like the TypeScript package's; other versions keep their numbers. */
export function pythonVersion(release: string): string {
  if (releaseIdProblem(release) === undefined) return releaseToVersion(release);
  if (/^(0|[1-9]\d*)(\.(0|[1-9]\d*))*$/.test(release)) return release;
  const numbers = release.match(/\d+/g)?.map((n) => BigInt(n).toString()) ?? [];
  return numbers.length === 0 ? "0" : numbers.join(".");
}

/** Text for one line of Markdown, also inside an HTML comment: no markup, no line break, no comment end. */
const markdownText = (text: string): string =>
  text
    .replace(/\s+/g, " ")
    .trim()
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/[\\`*_[\]#|]/g, "\\$&")
    .replaceAll("--", "-&#45;");

/** A TOML basic string: JSON's escapes are TOML's, and DEL must be escaped too. */
const tomlString = (text: string): string => JSON.stringify(text).replaceAll("\x7f", "\\u007f");

const KEYWORDS = PY_KEYWORDS;

const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);

export { snakeCase };

export { pyString };
const docstring = pyDocstring;
const docText = pyDocInline;

/** The job submission of the description (`x-paperoffice-job` role submit). */
const isJobSubmission = (op: Operation): boolean => op.job?.role === "submit";

const pyBool = (value: boolean): string => (value ? "True" : "False");

/** A Python number literal of a JSON number. */
const pyNumber = (value: number): string => (Number.isInteger(value) ? `${value}.0` : String(value));

/** An operation's security alternatives, any one of which is enough, as a tuple of tuples of scheme names. */
const securityOf = (op: Operation): PyExpr => tuple(op.security.map((requirement) => tuple(requirement.map((s) => pyString(s.scheme)))));

/** How the runtime hands over a body of a media type: JSON, text, or binary (a Download). */
type AnswerKind = "json" | "text" | "binary";

/** How the runtime reads a content of an encoding: JSON, text, or bytes (a Download). */
function answerKind(content: MediaContent): AnswerKind {
  return content.encoding === "json" ? "json" : content.encoding === "text" ? "text" : "binary";
}

/** A media type or range as an Accept header may list it: a type, a subtype and parameters without a comma. */
const ACCEPTABLE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[^,\r\n"]*)?$/;

/** The media types of the Accept header: those of the success answers, then of the other ones. */
function acceptOf(op: Operation): string[] {
  const ordered = [...op.responses.filter((r) => r.status.startsWith("2")), ...op.responses.filter((r) => !r.status.startsWith("2"))];
  const seen = new Set<string>();
  const types: string[] = [];
  for (const content of ordered.flatMap((r) => r.contents)) {
    const type = content.mediaType.trim();
    if (!ACCEPTABLE.test(type) || seen.has(type.toLowerCase())) continue;
    seen.add(type.toLowerCase());
    types.push(type);
  }
  return types;
}

/** The success answers: the declared 2xx statuses, and a 2XX range as the one for any other success status (0). */
const successResponses = (op: Operation) => op.responses.filter((r) => /^2(?:\d\d|XX)$/i.test(r.status));

/** The media type the runtime encodes a request body as, and how the method takes the body. */
function requestBodyOf(op: Operation): { mediaType: string; kind: "json" | "form" | "raw"; schema?: Schema } | undefined {
  const content = requestBodyContent(op);
  if (content === undefined) return undefined;
  // The runtime encodes application/json and application/*+json as JSON: other JSON (*/*, text/json) goes as the former.
  const jsonType = (t: string) => (t === "application/json" || /^application\/[^;*]*\+json$/.test(t) ? t : "application/json");
  if (content.encoding === "json") return { mediaType: jsonType(content.mediaType), kind: "json", schema: content.schema };
  if (content.encoding === "multipart") return { mediaType: "multipart/form-data", kind: "form", schema: content.schema };
  if (content.encoding === "form") return { mediaType: "application/x-www-form-urlencoded", kind: "form", schema: content.schema };
  const rawType = content.mediaType;
  return { mediaType: rawType.includes("*") ? "application/octet-stream" : rawType, kind: "raw" };
}

/** "Exactly one of" groups as model.py states them: a tuple of tuples of field names. */
const groupsExpr = (groups: readonly (readonly string[])[]): PyExpr => tuple(groups.map((g) => tuple(g.map(pyString))));

/** The "exactly one of" groups of a JSON or form body whose schema is an object (allOf and references followed). */
function bodyExactlyOne(op: Operation, named: ReadonlyMap<string, Schema>): readonly (readonly string[])[] {
  const body = requestBodyOf(op);
  if (body === undefined || body.kind === "raw" || body.schema === undefined) return [];
  const resolved = body.schema.kind === "ref" ? named.get(body.schema.name) : body.schema;
  if (resolved === undefined || (resolved.kind !== "object" && resolved.kind !== "intersection")) return [];
  return flattenObject(body.schema, named).exactlyOne ?? [];
}

/** The OperationSpec of an operation, as model.py declares it. */
function operationSpec(op: Operation, named: ReadonlyMap<string, Schema>): PyExpr {
  const body = requestBodyOf(op);
  const exactlyOne = bodyExactlyOne(op, named);
  const answers = successResponses(op).map((r) =>
    tuple([/^2\d\d$/.test(r.status) ? r.status : "0", tuple(r.contents.map((c) => pyString(c.mediaType)))]),
  );
  // How the runtime reads each declared media type: a range such as */* says nothing by its name.
  const byMedia = new Map<string, string>();
  for (const c of successResponses(op).flatMap((r) => r.contents)) {
    const kind = answerKind(c);
    byMedia.set(c.mediaType, kind === "binary" ? "bytes" : kind);
  }
  const kinds = [...byMedia].map(([media, kind]) => tuple([pyString(media), pyString(kind)]));
  return call(
    "OperationSpec",
    pyString(op.id),
    pyString(op.method.toUpperCase()),
    pyString(op.requestPath),
    ...(body === undefined ? [] : [kw("request_media_type", pyString(body.mediaType))]),
    kw("response_media_types", tuple(acceptOf(op).map(pyString))),
    kw("idempotent", pyBool(op.idempotent && !isJobSubmission(op))),
    ...(op.billed ? [kw("billed", "True")] : []),
    ...(op.idempotencyKey === undefined ? [] : [kw("idempotency_key", pyString(op.idempotencyKey))]),
    ...(op.job ? [kw("job", pyString(op.job.role))] : []),
    kw("security", securityOf(op)),
    ...(answers.length > 0 ? [kw("answers", tuple(answers))] : []),
    ...(kinds.length > 0 ? [kw("answer_kinds", tuple(kinds))] : []),
    ...(op.pagination ? [kw("pagination", paginationModel(op.pagination))] : []),
    ...(op.servers ? [kw("servers", tuple(op.servers.map(serverModel)))] : []),
    ...(exactlyOne.length > 0 ? [kw("exactly_one", groupsExpr(exactlyOne))] : []),
  );
}

/** How an operation pages, as model.py declares it. */
function paginationModel(p: Pagination): PyExpr {
  if (p.kind === "cursor") return call("CursorPaginationModel", pyString(p.cursor), pyString(p.next), pyString(p.items));
  if (p.kind === "link") return call("LinkPaginationModel", ...(p.items === undefined ? [] : [kw("items", pyString(p.items))]));
  return call(
    "PaginationModel",
    pyString(p.limit),
    pyString(p.offset),
    pyString(p.items),
    ...(p.total === undefined ? [] : [kw("total", pyString(p.total))]),
  );
}

/** A server as model.py declares it. */
function serverModel(s: Server): PyExpr {
  return call(
    "ServerModel",
    pyString(s.url),
    ...(s.variables.length === 0
      ? []
      : [
          kw(
            "variables",
            dict(
              s.variables.map((v) => [
                pyString(v.name),
                call("ServerVariable", pyString(v.default), ...(v.enum ? [kw("enum", tuple(v.enum.map(pyString)))] : [])),
              ]),
            ),
          ),
        ]),
  );
}

/** The constant name of an operation's spec in model.py. */
const specName = (method: string): string => {
  const name = method.toUpperCase();
  return SPEC_RESERVED.has(name) ? `${name}_OPERATION` : name;
};
const SPEC_RESERVED = new Set(["MODEL", "RELEASE", "DESCRIPTION_SHA256", "TITLE"]);

export interface OperationView {
  readonly name: string;
  readonly spec: string;
  readonly specDecl: string;
  readonly syncDef: string;
  readonly asyncDef: string;
  readonly doc: string;
  /** The docstring of the async client's method: its example awaits the call. */
  readonly asyncDoc: string;
  /** `@_te.deprecated(...)` above the method when the description deprecates the operation; else empty. */
  readonly decorator: string;
  readonly syncCall: string;
  readonly asyncCall: string;
  readonly returnLine: string;
  /** The auto-paging method of an operation that pages. */
  readonly pager?: PagerView;
}

export interface PagerView {
  readonly syncDef: string;
  readonly asyncDef: string;
  readonly doc: string;
  readonly asyncDoc: string;
  readonly syncReturn: string;
  readonly asyncReturn: string;
}

function operationView(ir: IR, op: Operation, types: TypeScope, models: TypeScope, names: PyNames, jobs: boolean): OperationView {
  const params: string[] = ["self"];
  const group = (
    list: Operation["parameters"]["query"],
  ): {
    entries: (readonly [string, PyExpr])[];
    required: string[];
    optional: string[];
    requiredDocs: DocEntry[];
    optionalDocs: DocEntry[];
  } => {
    const required: string[] = [];
    const optional: string[] = [];
    const requiredDocs: DocEntry[] = [];
    const optionalDocs: DocEntry[] = [];
    const entries = list.map((p) => {
      const id = names.param(op, p);
      const type = types.expr(p.schema, `${pascalCase(op.identifier)}${pascalCase(p.name)}`);
      (p.required ? required : optional).push(p.required ? `${id}: ${typed(type)}` : `${id}: ${typed(pyOptional(type))} = None`);
      (p.required ? requiredDocs : optionalDocs).push({
        name: id,
        text: `The ${p.in} parameter \`\`${p.name}\`\`${p.required ? "" : " (None: not sent)"}.${p.description ? ` ${p.description}` : ""}`,
      });
      return [pyString(p.name), id] as const;
    });
    return { entries, required, optional, requiredDocs, optionalDocs };
  };
  const path = group(op.parameters.path);
  const query = group(op.parameters.query);
  const header = group(op.parameters.header);
  const cookie = group(op.parameters.cookie);
  const body = requestBodyOf(op);
  params.push(...path.required, ...path.optional);
  if (body !== undefined) {
    // A body the description does not mark required may be left out (OpenAPI's default), as in the TypeScript client.
    const required = op.requestBody?.required === true;
    // A raw body takes what a file field takes (bytes, a path, a binary file object, an iterator of bytes) or text.
    const untyped = body.kind === "raw" ? "str | _rt.FileValue" : "_t.Mapping[str, object]";
    if (body.kind === "raw" || body.schema === undefined || (body.kind === "form" && !types.isObjectLike(body.schema))) {
      params.push(required ? `body: ${untyped}` : `body: ${untyped} | None = None`);
    } else {
      // A form is typed by its schema as a JSON body is: the runtime encodes any mapping of fields.
      // Exactly the declared fields, also where the object is open: a misspelt key is a type error, never a further
      // property (fields beyond the type are no part of the body's type).
      const type = types.expr(body.schema, `${pascalCase(op.identifier)}Body`);
      params.push(required ? `body: ${typed(type)}` : `body: ${typed(pyOptional(type))} = None`);
    }
  }
  const exactlyOne = bodyExactlyOne(op, types.named);
  const args: DocEntry[] = [
    ...path.requiredDocs,
    ...path.optionalDocs,
    ...(body === undefined
      ? []
      : [
          {
            name: "body",
            text: [
              `The request body, sent as ${body.mediaType}${op.requestBody?.required === true ? "" : " (None: no body)"}.`,
              op.requestBody?.description,
              body.kind === "raw"
                ? "Bytes, text, a path (``pathlib.Path``), a binary file object or an iterator of bytes; a path or" +
                  " file is read chunk by chunk as it is sent, and again from the start by a retry."
                : undefined,
              ...exactlyOne.map((g) => `Exactly one of ${g.map((f) => `\`\`${f}\`\``).join(", ")} (checked before sending).`),
            ]
              .filter(Boolean)
              .join(" "),
          },
        ]),
    ...query.requiredDocs,
    ...header.requiredDocs,
    ...cookie.requiredDocs,
    ...query.optionalDocs,
    ...header.optionalDocs,
    ...cookie.optionalDocs,
    op.idempotencyKey === undefined ? OPTIONS_DOC : KEYED_OPTIONS_DOC,
  ];
  // Every call takes the runtime's RequestOptions (extra_headers, extra_query, extra_body, timeout, max_retries,
  // deadline); a parameter of one of those names got a trailing underscore (PY_METHOD_BODY_NAMES).
  const keywordOnly = [
    ...query.required,
    ...header.required,
    ...cookie.required,
    ...query.optional,
    ...header.optional,
    ...cookie.optional,
  ];
  params.push(...(keywordOnly.length > 0 ? ["*", ...keywordOnly] : []), `**options: ${UNPACK}[_rt.RequestOptions]`);
  // Each success status: None without content, else what its media types are read as; JSON through the models.
  const successes = successResponses(op);
  const returned: PyType[] = [];
  const jsonTypes = new Map<string, PyType>();
  for (const r of successes) {
    if (r.contents.length === 0) returned.push(pyBuiltin("None"));
    for (const c of r.contents) {
      const kind = answerKind(c);
      if (kind === "text") returned.push(pyBuiltin("str"));
      else if (kind === "binary") returned.push(pyRef(DOWNLOAD));
      else {
        const key = JSON.stringify(c.schema);
        let type = jsonTypes.get(key);
        if (type === undefined) {
          type = models.expr(c.schema, `${pascalCase(op.identifier)}Response${jsonTypes.size === 0 ? "" : jsonTypes.size + 1}`);
          jsonTypes.set(key, type);
        }
        returned.push(type);
      }
    }
  }
  const valued = returned.filter((t) => !(t.kind === "builtin" && t.name === "None"));
  const noContent = successes.length > 0 && valued.length === 0;
  // JsonValue holds None already.
  const answerType =
    successes.length === 0
      ? pyRef("JsonValue")
      : noContent
        ? pyBuiltin("None")
        : valued.length < returned.length && !valued.some((t) => isPyRef(t, "JsonValue"))
          ? pyOptional(pyUnion(valued))
          : pyUnion(valued);
  const returnType = pyTypeExpr(answerType, modelRef);
  // What the runtime validates JSON into: the JSON types only (text and downloads are handed over as they are).
  const jsonUnion = [...jsonTypes.values()];
  // Statuses whose JSON types differ: each answer read as its own status's type (a union would let pydantic pick
  // the first member that fits, another status's model).
  const statusTypes = successes.flatMap((r) => {
    const types = [...new Set(r.contents.filter((c) => answerKind(c) === "json").map((c) => JSON.stringify(c.schema)))];
    return types.length === 1 ? [[/^2\d\d$/.test(r.status) ? r.status : "0", jsonTypes.get(types[0]!)!] as const] : [];
  });
  const byStatusArg: PyArg[] =
    jsonTypes.size > 1 && statusTypes.length > 0
      ? [kw("by_status", dict(statusTypes.map(([status, t]) => [status, pyTypeExpr(t, modelRef)])))]
      : [];
  const kindExpr: PyExpr =
    successes.length === 0 ? "_md.JsonValue" : jsonUnion.length === 0 ? "None" : pyTypeExpr(pyUnion(jsonUnion), modelRef);
  const plain = (t: PyType): string => `\`\`${printPyType(t, (id) => (id === DOWNLOAD ? "Download" : id))}\`\``;
  const returns: DocEntry[] =
    successes.length === 0
      ? [{ text: "The decoded JSON of the answer (the description declares no success answer)." }]
      : successes.map((r) => {
          const kinds = r.contents.map((c) => {
            const kind = answerKind(c);
            if (kind === "text") return `\`\`str\`\` (${c.mediaType})`;
            if (kind === "binary") return `a \`\`Download\`\` (${c.mediaType})`;
            return `${plain(jsonTypes.get(JSON.stringify(c.schema))!)} (${c.mediaType})`;
          });
          const status = /^2\d\d$/.test(r.status) ? `HTTP ${r.status}` : "Another success status";
          const what = kinds.length === 0 ? "None (no content)" : [...new Set(kinds)].join(" or ");
          return { text: `${status}: ${what}.${r.description.trim() ? ` ${r.description.trim()}` : ""}` };
        });
  const raises: DocEntry[] = [
    // A code with a class of its own (the description's error codes); any other is raised as its status's class.
    ...[...new Set(op.errorCodes)]
      .filter((code) => errorCodeWordsOf(ir).has(code))
      .map((code) => ({
        name: names.errorClass(code),
        text: `The service answered with code ${code} (a class of errors, under the class of its HTTP status).`,
      })),
    ...(exactlyOne.length > 0 ? [{ name: "SdkError", text: 'The body breaks an "exactly one of" rule (nothing is sent).' }] : []),
    ...(!sentAgainAfterFailure(op)
      ? [
          {
            name: isJobSubmission(op) ? "JobMayExistError" : "MayHaveBeenProcessedError",
            // What the runtime raises for a write it does not send twice (is_resendable).
            text: "A 5xx answer (not 503, which is retried) or a failure after sending: it is not sent again. For a 5xx this error is also the answer's InternalServerError, a ServiceError.",
          },
        ]
      : []),
    ...COMMON_RAISES,
  ];
  const docBody = [
    op.summary,
    op.description,
    `${op.method.toUpperCase()} ${op.path}`,
    jobs && isJobSubmission(op) && op.variants
      ? "A single submission: no waiting. The submit_<pipeline> methods submit and wait."
      : undefined,
    deprecationNote(op, names),
    methodSections({ args, returns, raises }),
  ];
  const docFor = (awaited: boolean): string =>
    [...docBody, exampleSection(op, names, body !== undefined && op.requestBody?.required === true, awaited)]
      .filter((t): t is string => t !== undefined && t.trim() !== "")
      .map((t) => t.trim())
      .join("\n\n");
  const name = names.method(op);
  const spec = specName(name);
  const inputArgs: PyArg[] = [
    ...(path.entries.length > 0 ? [kw("path", dict(path.entries))] : []),
    ...(query.entries.length > 0 ? [kw("query", dict(query.entries))] : []),
    ...(header.entries.length > 0 ? [kw("headers", dict(header.entries))] : []),
    ...(cookie.entries.length > 0 ? [kw("cookies", dict(cookie.entries))] : []),
    ...(body !== undefined ? [kw("body", "body")] : []),
  ];
  const callArgs: PyArg[] = [`_m.${spec}`, ...(inputArgs.length > 0 ? [call("_rt.CallInput", ...inputArgs)] : []), "**options"];
  const target = noContent ? "" : "result = ";
  // A pager takes the operation's parameters and a deadline for the whole iteration, not one call's options.
  // A read by cursor or Link header also takes the headers of every page's request.
  const nextPaging = op.pagination !== undefined && op.pagination.kind !== "offset";
  const pagerParams = [
    ...params.filter((p) => !p.startsWith("**")),
    ...(keywordOnly.length > 0 ? [] : ["*"]),
    "deadline: float | None = None",
    ...(nextPaging ? ["extra_headers: _t.Mapping[str, str] | None = None"] : []),
  ];
  const pagerArgs = [
    ...args.filter((a) => a !== OPTIONS_DOC && a !== KEYED_OPTIONS_DOC),
    PAGER_DEADLINE_DOC,
    ...(nextPaging ? [PAGER_HEADERS_DOC] : []),
  ];
  const pager = pagerView(ir, op, {
    params: pagerParams,
    spec,
    inputArgs,
    jsonTypes: jsonUnion,
    noContent,
    models,
    names,
    args: pagerArgs,
    raises,
    example: (awaited) => exampleSection(op, names, body !== undefined && op.requestBody?.required === true, awaited, names.paginate(op)),
  });
  return {
    ...(pager === undefined ? {} : { pager }),
    name,
    spec,
    specDecl: statement(0, `${spec} = `, operationSpec(op, types.named)),
    syncDef: defLine(4, `def ${name}`, params, returnType),
    asyncDef: defLine(4, `async def ${name}`, params, returnType),
    doc: docstring(docFor(false), 8),
    asyncDoc: docstring(docFor(true), 8),
    decorator: deprecationDecorator(op),
    syncCall: statement(8, target, call("self._runtime.call", ...callArgs)),
    asyncCall: statement(8, `${target}await `, call("self._runtime.call", ...callArgs)),
    returnLine: noContent
      ? "        return None"
      : statement(8, "return ", call("_t.cast", returnType, call("self._runtime.answer", "result", kindExpr, ...byStatusArg))),
  };
}

/** typing_extensions' Unpack, as the client modules import it (Python 3.10 has no typing.Unpack). */
const UNPACK = "_te.Unpack";
/** The Args:, Returns: and Raises: of a pipeline's submit-and-wait method; `payloads` by variant, in order. */
function pipelineSections(p: Pipeline, payloads: readonly PyType[]): MethodSections {
  const plain = (t: PyType): string => `\`\`${printPyType(t, (id) => id)}\`\``;
  const groups = p.variants.flatMap((v) => v.exactlyOne.map((g) => ({ v, g })));
  return {
    args: [
      {
        name: "body",
        text: `The job's request, one of the pipeline's variants${
          p.discriminators.length > 0 ? ` (chosen by ${p.discriminators.map((d) => `\`\`${d}\`\``).join(", ")})` : ""
        }.`,
      },
      { name: "deadline", text: "Seconds the submission and the waiting may take in all (None: the client's ``job_deadline``)." },
      { name: "poll_interval", text: "The pause between polls, from min to max seconds (None: the client's ``poll_interval``)." },
    ],
    returns: [
      {
        text: `A \`\`JobResult\`\` whose \`\`data\`\` is the payload of the body's variant: ${p.variants
          .map((v, i) => `${v.name}: ${plain(payloads[i]!)}`)
          .join("; ")}.`,
      },
    ],
    raises: [
      ...(groups.length > 0
        ? [
            {
              name: "SdkError",
              text: `The body breaks an "exactly one of" rule of its variant (${groups
                .map(({ v, g }) => `${v.name}: ${g.join(", ")}`)
                .join("; ")}); nothing is sent.`,
            },
          ]
        : []),
      { name: "JobFailedError", text: "The job ended with a failure status." },
      {
        name: "JobMayExistError",
        text: "The submission may have reached the service but its answer was lost or a 5xx: it is not sent again.",
      },
      ...COMMON_RAISES,
    ],
  };
}

/** The Args: entry of a pager's deadline, which bounds the whole iteration. */
const PAGER_DEADLINE_DOC: DocEntry = {
  name: "deadline",
  text: "Seconds the whole iteration may take, every page included (None: each page has the client's ``deadline``).",
};

/** The Args: entry of the headers a pager by cursor or Link header sends on every page. */
const PAGER_HEADERS_DOC: DocEntry = {
  name: "extra_headers",
  text: "Headers added to every page's request (credentials still win).",
};

/** The Args: entry of the options every operation method takes (the runtime's RequestOptions). */
const OPTIONS_DOC: DocEntry = {
  name: "**options",
  text: "Options of this call only: ``extra_headers``, ``extra_query``, ``extra_body`` (fields beyond the body's type), ``timeout`` (seconds of one socket operation), ``max_retries`` and ``deadline`` (seconds of the whole call, retries included; None: the client's).",
};

/** The same entry for an operation that takes an idempotency key. */
const KEYED_OPTIONS_DOC: DocEntry = {
  name: "**options",
  text: `${OPTIONS_DOC.text} \`\`idempotency_key\`\`: the call's idempotency key, sent on each of its attempts (None: a new random UUID v4 per call); the key lets a failed call be sent again without it being carried out twice.`,
};

/** The Raises: entries of every call, after those of the operation. */
const COMMON_RAISES: readonly DocEntry[] = [
  { name: "ServiceError", text: "Any other error answer of the service (its class by HTTP status, for example NotFoundError)." },
  { name: "APIConnectionError", text: "The service could not be reached." },
  { name: "DeadlineExceededError", text: "The deadline passed before an answer." },
];
/**
 * The auto-paging method of an operation that pages with one JSON answer type: the operation's own parameters, a
 * pager over its items (validated into the item type where the description names one) and pages.
 */
function pagerView(
  ir: IR,
  op: Operation,
  context: {
    readonly params: readonly string[];
    readonly spec: string;
    readonly inputArgs: readonly PyArg[];
    readonly jsonTypes: readonly PyType[];
    readonly noContent: boolean;
    readonly models: TypeScope;
    readonly names: PyNames;
    /** The Args: and Raises: of the operation's method, a deadline for the whole iteration among the Args. */
    readonly args: readonly DocEntry[];
    readonly raises: readonly DocEntry[];
    /** The Example: section of the pager's docstring, for the Client or the AsyncClient. */
    readonly example: (awaited: boolean) => string | undefined;
  },
): PagerView | undefined {
  const paging = op.pagination;
  const [answer, ...others] = context.jsonTypes;
  if (paging === undefined || answer === undefined || others.length > 0 || context.noContent) return undefined;
  const responseSchema = successResponses(op)
    .flatMap((r) => r.contents)
    .find((c) => answerKind(c) === "json")?.schema;
  const itemSchema = responseSchema === undefined ? undefined : itemSchemaOf(ir, responseSchema, paging.items);
  const itemType = itemSchema === undefined ? undefined : context.models.expr(itemSchema, `${pascalCase(op.identifier)}Item`);
  const itemExpr = itemType === undefined ? "_t.Any" : pyTypeExpr(itemType, modelRef);
  const dataExpr = pyTypeExpr(answer, modelRef);
  const name = context.names.paginate(op);
  const pagerType = (cls: string) => sub(cls, [itemExpr, dataExpr]);
  const offset = paging.kind === "offset";
  const [syncPager, asyncPager, page] = offset ? ["SyncPager", "AsyncPager", "Page"] : ["SyncNextPager", "AsyncNextPager", "NextPage"];
  const args: PyArg[] = [
    "self._runtime",
    `_m.${context.spec}`,
    call("_rt.CallInput", ...context.inputArgs),
    dataExpr,
    itemType === undefined ? "None" : itemExpr,
    kw("deadline", "deadline"),
    ...(offset ? [] : [kw("extra_headers", "extra_headers")]),
  ];
  const where = paging.items === undefined ? "the answer's items" : `the answer's ${paging.items}`;
  const method = context.names.method(op);
  const how =
    paging.kind === "offset"
      ? `Pages are read by ${paging.limit} and ${paging.offset}, from the given offset (default 0) and page size (default 100), until a page comes back short or empty${paging.total === undefined ? "" : `, or the items read reach the answer's ${paging.total}`}.`
      : paging.kind === "cursor"
        ? `Each next page is asked for with the answer's ${paging.next} as ${paging.cursor}, until an answer gives none or a page comes back empty.`
        : `Each next page is read from the answer's Link header (rel="next"), only at the operation's own origin (a link elsewhere is an SdkError), until an answer gives none or a page comes back empty.`;
  const doc = [
    `Every item of ${method} (${where}), page after page: \`\`for item in client.${name}(...)\`\` (\`\`async for\`\` on the AsyncClient); \`\`.pages()\`\` gives each page instead (a \`\`${page}\`\` with its items, the whole answer as the method returns it, and its metadata).`,
    `${how} \`\`deadline\`\` (seconds) bounds the whole iteration; without it each page has the client's. Errors are those of ${method}.`,
    methodSections({
      args: context.args,
      returns: [
        {
          text: `A pager (\`\`${syncPager}\`\` on the Client, \`\`${asyncPager}\`\` on the AsyncClient) over the items, ${itemType === undefined ? "as decoded JSON" : `each a \`\`${printPyType(itemType, (id) => id)}\`\``}; nothing is read before iterating.`,
        },
      ],
      raises: context.raises,
    }),
  ].join("\n\n");
  return {
    syncDef: defLine(4, `def ${name}`, context.params, pagerType(`_rt.${syncPager}`)),
    asyncDef: defLine(4, `def ${name}`, context.params, pagerType(`_rt.${asyncPager}`)),
    doc: docstring([doc, context.example(false)].filter(Boolean).join("\n\n"), 8),
    asyncDoc: docstring([doc, context.example(true)].filter(Boolean).join("\n\n"), 8),
    syncReturn: statement(8, "return ", call(flatSub(`_rt.${syncPager}`, itemExpr, dataExpr), ...args)),
    asyncReturn: statement(8, "return ", call(flatSub(`_rt.${asyncPager}`, itemExpr, dataExpr), ...args)),
  };
}

/** `Name[A, B]` as the callee of a call. */
const flatSub = (name: string, ...items: PyExpr[]): string => flat(sub(name, items));
/**
 * The docstring's note on what the description deprecates: the operation (whose method also warns when called), and
 * its deprecated parameters by their Python names.
 */
function deprecationNote(op: Operation, names: PyNames): string | undefined {
  const all = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const params = all.filter((p) => p.deprecated || p.schema.deprecated).map((p) => names.param(op, p));
  const lines = [
    ...(op.deprecated ? ["Deprecated: the description marks this operation deprecated; calling it warns (DeprecationWarning)."] : []),
    ...(params.length > 0 ? [`Deprecated parameters: ${params.join(", ")} (the description marks them deprecated).`] : []),
  ];
  return lines.length === 0 ? undefined : lines.join("\n");
}

/** A fixture value as Python source: a file as a (name, bytes, media type) tuple, JSON's literals as Python's. */
function pyExampleValue(value: FixtureValue): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return JSON.stringify(value);
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyExampleValue).join(", ")}]`;
  if ("$file" in value && typeof value.$file === "object" && value.$file !== null && !Array.isArray(value.$file)) {
    const file = value.$file as { name?: unknown; text?: unknown; contentType?: unknown };
    return `(${pyString(String(file.name ?? "file"))}, b${pyString(String(file.text ?? ""))}, ${pyString(String(file.contentType ?? ""))})`;
  }
  return `{${Object.entries(value)
    .map(([k, v]) => `${pyString(k)}: ${pyExampleValue(v as FixtureValue)}`)
    .join(", ")}}`;
}

/**
 * The docstring's `Example:` section: one call of the method with the fixture's values of its required parameters and
 * of its body's required fields (fixtures/ holds the same samples), and the answer printed; none when a required
 * header or cookie has no fixture value. Laid out an argument a line when the call does not fit on one.
 */
function exampleSection(op: Operation, names: PyNames, bodyRequired: boolean, awaited: boolean, pager?: string): string | undefined {
  const fixture = exampleFixtures.get(op);
  if (fixture === undefined) return undefined;
  const positional: string[] = [];
  const keywords: string[] = [];
  for (const p of [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie]) {
    if (!p.required && p.in !== "path") continue;
    const value = p.in === "path" ? fixture.request.path[p.name] : p.in === "query" ? fixture.request.query[p.name] : undefined;
    if (value === undefined) return undefined;
    if (p.in === "path") positional.push(pyExampleValue(value));
    else keywords.push(`${names.param(op, p)}=${pyExampleValue(value)}`);
  }
  if (bodyRequired) {
    if (fixture.request.body === undefined) return undefined;
    positional.push(pyExampleValue(exampleBodies.get(op) ?? fixture.request.body));
  }
  const args = [...positional, ...keywords];
  // A pager is made without awaiting, and iterated (`async for` on the AsyncClient).
  const head = `result = ${awaited && pager === undefined ? "await " : ""}client.${pager ?? names.method(op)}(`;
  const flat = `    ${head}${args.join(", ")})`;
  const call = flat.length <= 100 ? [flat] : [`    ${head}`, ...args.map((a) => `        ${a},`), "    )"];
  const shown = pager === undefined ? ["    print(result)"] : [`    ${awaited ? "async " : ""}for item in result:`, "        print(item)"];
  return ["Example:", ...call, ...shown].join("\n");
}

/** Each operation's first fixture case and its body cut down for the example, filled by pythonView before the views are made. */
const exampleFixtures = new WeakMap<Operation, FixtureCase>();
const exampleBodies = new WeakMap<Operation, FixtureValue>();

function rememberExamples(ir: IR): void {
  for (const op of ir.operations) {
    const first = fixtureCases(ir, op)[0];
    if (first === undefined) continue;
    exampleFixtures.set(op, first);
    const body = exampleBody(ir, op, first);
    if (body !== undefined) exampleBodies.set(op, body);
  }
}

/** `@_te.deprecated("...")`: type checkers flag the calls, and each call warns with a DeprecationWarning. */
function deprecationDecorator(op: Operation): string {
  if (!op.deprecated) return "";
  return `    @_te.deprecated(${pyString(`${op.id} is deprecated: the description marks this operation deprecated.`)})`;
}

/** Names the client modules write: models as `_md.X`, the runtime's Download as `_rt.Download`. */
const modelRef = (id: string): string => (id === DOWNLOAD ? "_rt.Download" : `_md.${id}`);
/** Request-side types as the clients write them: through the types package, imported as `_ty`. */
const typed = (type: PyType): string => printPyType(type, (id) => `_ty.${paramName(id)}`);

/** The runtime's Download in a return type: not a name of the models package (no identifier has a space). */
const DOWNLOAD = " Download";

/** The operations that submit and poll jobs, when the description marks both (`x-paperoffice-job`). */
function jobFacts(ir: IR): { submit: Operation & { job: JobSubmit }; poll: Operation & { job: JobPoll } } | undefined {
  const submit = ir.operations.find((o): o is Operation & { job: JobSubmit } => o.job?.role === "submit");
  const polls = ir.operations.filter((o): o is Operation & { job: JobPoll } => o.job?.role === "poll");
  const poll = polls.find((o) => o.id === submit?.job.poll) ?? polls[0];
  return submit === undefined || poll === undefined ? undefined : { submit, poll };
}

/** A variant as model.py declares it: how a body is recognised as it, its "exactly one of" groups and its fields. */
function variantModel(v: Pipeline["variants"][number]): PyExpr {
  const d = v.discriminator;
  return call(
    "VariantModel",
    pyString(v.name),
    ...(d === undefined ? [] : [kw("property", pyString(d.property)), kw("value", pyString(d.value))]),
    ...(d?.serverDefault ? [kw("server_default", "True")] : []),
    ...(v.exactlyOne.length > 0 ? [kw("exactly_one", groupsExpr(v.exactlyOne))] : []),
    // Its fields, for the check of misspelt ones before sending: none listed when its parameters are not shown.
    ...(v.open ? [] : [kw("fields", call("frozenset", tuple(v.request.properties.map((p) => pyString(p.name)))))]),
  );
}

/** The ServiceModel of the description as model.py declares it (compare the TypeScript client's). */
function serviceModel(ir: IR, specs: ReadonlyMap<Operation, string>): PyExpr {
  const args: PyArg[] = [kw("release", "RELEASE"), kw("description_hash", "DESCRIPTION_SHA256"), kw("title", pyString(ir.info.title))];
  const errors = ir.errors.filter((e, i, all) => all.findIndex((x) => x.code === e.code) === i);
  if (errors.length > 0) {
    args.push(
      kw(
        "errors",
        dict(
          errors.map((e) => [
            pyString(e.code),
            call(
              "ErrorSpec",
              String(e.status),
              ...(e.description === undefined ? [] : [pyString(e.description.replace(/\s+/g, " ").trim())]),
            ),
          ]),
        ),
      ),
    );
  }
  const jobs = jobFacts(ir);
  const variants = (jobs?.submit ?? ir.operations.find((o) => o.variants !== undefined))?.variants;
  const pipelines = variants?.pipelines ?? [];
  if (pipelines.length > 0) {
    args.push(
      kw(
        "pipelines",
        dict(
          pipelines.map((p) => {
            const strings = [...new Set(p.variants.flatMap((v) => v.jsonStrings))].sort();
            return [
              pyString(p.slug),
              call(
                "PipelineModel",
                pyString(p.payloadAfterPolling),
                ...(p.baseCredits === undefined ? [] : [kw("base_credits", pyNumber(p.baseCredits))]),
                ...(strings.length === 0 ? [] : [kw("json_strings", tuple(strings.map(pyString)))]),
                kw("variants", tuple(p.variants.map(variantModel))),
              ),
            ] as const;
          }),
        ),
      ),
    );
  }
  const pricing = variants?.pricing;
  if (pricing !== undefined) {
    args.push(
      kw(
        "pricing",
        call(
          "PricingModel",
          kw("lane_multipliers", dict(Object.entries(pricing.laneMultipliers).map(([lane, m]) => [pyString(lane), pyNumber(m)]))),
          kw("default_lane", pyString(pricing.defaultLane)),
          ...(pricing.minimumCharge === undefined ? [] : [kw("minimum_charge", pyNumber(pricing.minimumCharge))]),
        ),
      ),
    );
  }
  if (ir.servers.length > 0) {
    args.push(kw("servers", tuple(ir.servers.map(serverModel))));
  }
  if (ir.securitySchemes.length > 0) {
    args.push(
      kw(
        "security_schemes",
        dict(
          ir.securitySchemes.map((s) => [
            pyString(s.name),
            s.type === "http"
              ? call("SecurityScheme", pyString("http"), kw("scheme", pyString((s.scheme ?? "bearer").toLowerCase())))
              : s.type === "apiKey"
                ? call(
                    "SecurityScheme",
                    pyString("apiKey"),
                    kw("location", pyString(s.in ?? "header")),
                    kw("name", pyString(s.parameterName ?? "")),
                  )
                : call("SecurityScheme", pyString(s.type)),
          ]),
        ),
      ),
    );
  }
  const env = envNames(ir);
  args.push(kw("request_id_header", pyString(requestIdHeader(ir))));
  args.push(
    kw("env", call("EnvModel", kw("token", pyString(env.token)), kw("base_url", pyString(env.baseUrl)), kw("log", pyString(env.log)))),
  );
  const conventions = ir.conventions;
  if (conventions !== undefined) {
    const envelope = conventions.envelope;
    const tokens = conventions.tokens;
    args.push(
      kw(
        "conventions",
        call(
          "ConventionsModel",
          ...(conventions.basePathSuffix === undefined ? [] : [kw("base_path_suffix", pyString(conventions.basePathSuffix))]),
          ...(envelope === undefined
            ? []
            : [
                kw(
                  "envelope",
                  call(
                    "EnvelopeModel",
                    kw("status", pyString(envelope.status)),
                    kw("success", pyString(envelope.success)),
                    kw("error", pyString(envelope.error)),
                    kw("code", pyString(envelope.code)),
                    kw("message", pyString(envelope.message)),
                    ...(envelope.processingTime === undefined ? [] : [kw("processing_time", pyString(envelope.processingTime))]),
                    ...(envelope.billing === undefined ? [] : [kw("billing", pyString(envelope.billing))]),
                    ...(envelope.nextRequestSeconds === undefined || envelope.nextRequestSeconds.length === 0
                      ? []
                      : [kw("next_request_seconds", tuple(envelope.nextRequestSeconds.map(pyString)))]),
                  ),
                ),
              ]),
          ...(tokens === undefined
            ? []
            : [
                kw(
                  "tokens",
                  call(
                    "TokenKindsModel",
                    pyString(tokens.scheme),
                    pyString(tokens.brand),
                    kw(
                      "kinds",
                      tuple(
                        tokens.kinds.map((k) =>
                          call("TokenKind", pyString(k.prefix), pyString(k.name), ...(k.serverOnly ? [kw("server_only", "True")] : [])),
                        ),
                      ),
                    ),
                    ...(tokens.renewOn.length === 0 ? [] : [kw("renew_on", tuple(tokens.renewOn.map(pyString)))]),
                  ),
                ),
              ]),
        ),
      ),
    );
  }
  if (jobs !== undefined) {
    const { submit, poll } = jobs;
    const download = ir.operations.find((o): o is Operation & { job: JobDownload } => o.job?.role === "download");
    const selector = submit.variants?.selector ?? (submit.parameters.path.length === 1 ? submit.parameters.path[0]!.name : undefined);
    const noWait = submit.job.noWait;
    args.push(
      kw(
        "jobs",
        call(
          "JobsModel",
          kw(
            "submit",
            call(
              "JobSubmitModel",
              specs.get(submit)!,
              pyString(submit.job.jobId),
              ...(selector === undefined ? [] : [kw("pipeline_parameter", pyString(selector))]),
              ...(submit.job.pollUrl === undefined ? [] : [kw("poll_url", pyString(submit.job.pollUrl))]),
              ...(submit.job.stillRunningStatus === undefined ? [] : [kw("still_running_status", String(submit.job.stillRunningStatus))]),
              ...(noWait === undefined ? [] : [kw("no_wait", call("NoWait", pyString(noWait.field), pyLiteralText(noWait.value)))]),
              ...(submit.job.selectorPattern === undefined ? [] : [kw("selector_pattern", pyString(submit.job.selectorPattern))]),
              ...(submit.job.selectorRefusal === undefined ? [] : [kw("selector_refusal", pyString(submit.job.selectorRefusal))]),
            ),
          ),
          kw(
            "poll",
            call(
              "JobPollModel",
              specs.get(poll)!,
              pyString(poll.job.jobIdParameter),
              pyString(poll.job.status),
              pyString(poll.job.completed),
              tuple(poll.job.payload.map(pyString)),
            ),
          ),
          ...(download === undefined
            ? []
            : [kw("download", call("JobDownloadModel", specs.get(download)!, pyString(download.job.tokenParameter)))]),
        ),
      ),
    );
  }
  const headers = ir.webhooks.flatMap((w) => w.headers);
  const headerNamed = (pattern: RegExp): string | undefined => headers.find((h) => pattern.test(h.name))?.name;
  if (ir.webhooks.length > 0) {
    // The description's conventions when it states them; otherwise the names found in the delivery headers.
    const signing = ir.conventions?.webhooks;
    const signature = signing?.signature.header ?? headerNamed(/signature/i) ?? "X-Service-Signature";
    const eventId = signing?.headers.eventId ?? headerNamed(/event-id/i) ?? "X-Service-Event-ID";
    const eventType = signing === undefined ? headerNamed(/event-type/i) : signing.headers.eventType;
    const subscriptionHeader = signing?.headers.subscriptionId;
    const subscriptionField = signing?.body.subscriptionId;
    const timestamp = signing?.body.timestamp;
    args.push(
      kw(
        "webhooks",
        call(
          "WebhooksModel",
          kw("signature_header", pyString(signature)),
          kw("signature_prefix", pyString(signing?.signature.prefix ?? "sha256=")),
          kw("event_id_header", pyString(eventId)),
          kw("event_id_field", pyString(signing?.body.eventId ?? "event_id")),
          kw("event_type_field", pyString(signing?.body.eventType ?? "event_type")),
          ...(eventType === undefined ? [] : [kw("event_type_header", pyString(eventType))]),
          ...(subscriptionHeader === undefined ? [] : [kw("subscription_id_header", pyString(subscriptionHeader))]),
          ...(subscriptionField === undefined ? [] : [kw("subscription_id_field", pyString(subscriptionField))]),
          ...(timestamp === undefined ? [] : [kw("timestamp_field", pyString(timestamp))]),
          kw("event_types", tuple([...new Set(ir.webhooks.map((w) => w.event))].map(pyString))),
        ),
      ),
    );
  }
  return call("ServiceModel", ...args);
}

/** The view data of the Python client: everything the templates read. */
export function pythonView(ir: IR, options: PythonOptions = {}): LanguageView {
  const names = pythonNames(ir.info.title, options);
  // Every name of the output, planned before anything is printed.
  const planned = planPythonNames(ir);
  const scope = new TypeScope(ir, planned.take);
  const jobs = jobFacts(ir);
  // The pipelines' request types come with the variants; their submit-and-wait methods need the job roles too.
  const pipelines: readonly Pipeline[] = (jobs?.submit ?? ir.operations.find((o) => o.variants !== undefined))?.variants?.pipelines ?? [];
  for (const s of ir.schemas) scope.names.set(s.name, planned.schemaType(s.name));

  for (const s of ir.schemas) {
    if (!planned.sharedWithVariant(s.name)) scope.declareNamed(s.name, s.schema);
    scope.flush();
  }
  const requestDecls: Decl[] = [];
  for (const pipeline of pipelines) {
    const members: PyType[] = [];
    for (const variant of pipeline.variants) {
      const name = planned.variantType(pipeline, variant);
      members.push(pyRef(name));
      const chosen = variant.discriminator
        ? `Variant ${variant.name} of pipeline ${pipeline.slug}, chosen by ${variant.discriminator.property}=${variant.discriminator.value}${
            variant.discriminator.serverDefault ? " (the server's default when absent)" : ""
          }.`
        : `Pipeline ${pipeline.slug}.`;
      const notes = [chosen, variant.open ? "Its parameters are not shown: further properties are allowed." : undefined]
        .filter(Boolean)
        .join(" ");
      const before = scope.decls.length;
      scope.declareObject(
        name,
        { ...variant.request, description: [variant.summary, variant.description].filter(Boolean).join("\n\n") },
        notes,
      );
      scope.flush();
      requestDecls.push(...scope.decls.splice(before));
    }
    requestDecls.push({
      typedDict: false,
      alias: true,
      name: planned.pipelineType(pipeline),
      expr: pyUnion(members),
      comment: pyComment(
        `The body of pipeline ${pipeline.slug}${pipeline.discriminators.length > 0 ? `, a union discriminated by ${pipeline.discriminators.join(", ")}` : ""}.`,
      ),
    });
  }

  // Types used only in answers are declared by the same scope: the models package declares every type once more.
  rememberExamples(ir);
  const operations = ir.operations.map((o) => operationView(ir, o, scope, scope, planned, jobs !== undefined));
  const specs = new Map(ir.operations.map((o, i) => [o, `${operations[i]!.spec}`]));
  const pipelineViews = (jobs === undefined ? [] : pipelines).map((p) => {
    const payloads = p.variants.map((v) => (v.payload ? scope.expr(v.payload, `${p.identifier}Payload`) : pyRef("JsonValue")));
    const payload = pyUnion(payloads);
    // Variants whose payloads differ: the payload is read as its variant's (a union would let pydantic pick the
    // first member that fits, a plain dict where another variant's model was meant).
    const byVariant = new Set(payloads.map((t) => printPyType(t, modelRef))).size > 1;
    const parsed = byVariant
      ? call(
          "self._runtime.parse_variant_payload",
          "result",
          pyString(p.slug),
          "body",
          dict(p.variants.map((v, i) => [pyString(v.name), pyTypeExpr(payloads[i]!, modelRef)])),
          pyTypeExpr(payload, modelRef),
        )
      : call("self._runtime.parse_payload_as", "result", pyTypeExpr(payload, modelRef));
    const request = pyRef(planned.pipelineType(p));
    // The union of the variants' exact types, also where a variant is open (see the bodies of operations).
    const requestType = typed(request);
    const payloadType = sub("_rt.JobResult", [pyTypeExpr(payload, modelRef)]);
    const method = planned.submit(p);
    const params = [
      "self",
      `body: ${requestType}`,
      "*",
      "deadline: float | None = None",
      "poll_interval: tuple[float, float] | None = None",
    ];
    // The variant's "exactly one of" groups, checked before anything is sent.
    const check = statement(8, "", call("self._runtime.check_variant_body", pyString(p.slug), "body"));
    const submitArgs: PyArg[] = [pyString(p.slug), "dict(body)", kw("deadline", "deadline"), kw("poll_interval", "poll_interval")];
    return {
      method,
      requestName: paramName(planned.pipelineType(p)),
      syncDef: defLine(4, `def ${method}`, params, payloadType),
      asyncDef: defLine(4, `async def ${method}`, params, payloadType),
      syncCall: `${check}\n${statement(8, "result = ", call("self._runtime.submit_job", ...submitArgs))}`,
      asyncCall: `${check}\n${statement(8, "result = await ", call("self._runtime.submit_job", ...submitArgs))}`,
      returnLine: statement(8, "return ", parsed),
      doc: docstring(
        [
          p.summary,
          `Submits a job to pipeline ${p.slug} and waits for its payload (\`${p.payloadAfterPolling}\` after polling).`,
          p.baseCredits !== undefined ? `Base price: ${p.baseCredits} credits, times the lane multiplier.` : undefined,
          methodSections(pipelineSections(p, payloads)),
        ]
          .filter(Boolean)
          .join("\n\n"),
        8,
      ),
    };
  });
  scope.flush();

  // One class per code.
  const errors = ir.errors
    .filter((e, i, all) => all.findIndex((x) => x.code === e.code) === i)
    .map((e) => ({
      className: planned.errorClass(e.code),
      // The runtime's class of the code's status when the description gives the code exactly one status with a class.
      parent: codeStatusClass(ir, e.code)?.name ?? SERVICE_ERROR,
      code: pyString(e.code),
      status: e.status,
      doc: docstring(`HTTP ${e.status} ${e.code}: ${e.description ?? ""}`.trim(), 4),
    }));
  const errorTable = statement(0, "ERROR_CLASSES: _t.Mapping[str, type[ServiceError]] = ", dict(errors.map((e) => [e.code, e.className])));

  const eventTypes = ir.webhooks.map((w) => scope.expr(w.body, `${w.identifier}Event`));
  scope.flush();
  // Webhook events are TypedDicts of the types package: their names are its own.
  const eventUnion = paramType(eventTypes.length === 0 ? pyRef("JsonObject") : pyUnion(eventTypes));
  // One delivery class per event name of webhooks.py, its body typed by the event's model.
  const deliveryNames = new Set(["WebhookDelivery", "VerifiedEvent", "UnknownWebhookDelivery", "MODEL"]);
  const deliveries = ir.webhooks
    .map((w, i) => ({ event: w.event, identifier: w.identifier, body: eventTypes[i]! }))
    .filter((d, i, all) => all.findIndex((x) => x.event === d.event) === i)
    .map((d) => {
      const stem = /^[A-Za-z]/.test(pascalCase(d.identifier)) ? pascalCase(d.identifier) : `Event${pascalCase(d.identifier)}`;
      let className = `${stem}Delivery`;
      for (let n = 2; deliveryNames.has(className) || PY_KEYWORDS.has(className); n++) className = `${stem}Delivery${n}`;
      deliveryNames.add(className);
      return {
        className,
        event: pyString(d.event),
        eventDoc: pyDocInline(d.event),
        body: pyTypeExpr(d.body, modelRef),
      };
    });
  const decls = [...scope.decls, ...requestDecls];
  // The types package declares each schema under its role's name (paramName); the models package under its own.
  const { modules, home } = typesModules(decls.map(paramDecl));
  const models = modelsModules(decls);
  // WebhookEvent's references are names __init__.py imports; another one would be undefined there.
  const undeclared = [...pyTypeRefs(eventUnion)].filter((id) => !home.has(id) || id.startsWith("_"));
  if (undeclared.length > 0) throw new Error(`python types: WebhookEvent refers to ${undeclared.join(", ")}, not exported`);
  const firstServer = (ir.servers[0]?.variables ?? []).reduce(
    (url, v) => url.replaceAll(`{${v.name}}`, v.default),
    ir.servers[0]?.url ?? "http://127.0.0.1/",
  );
  const modelImports = [
    "ConventionsModel",
    "EnvelopeModel",
    "EnvModel",
    "ErrorSpec",
    "JobDownloadModel",
    "JobPollModel",
    "JobsModel",
    "JobSubmitModel",
    "NoWait",
    "OperationSpec",
    "CursorPaginationModel",
    "LinkPaginationModel",
    "PaginationModel",
    "PipelineModel",
    "PricingModel",
    "SecurityScheme",
    "ServerModel",
    "ServerVariable",
    "ServiceModel",
    "TokenKind",
    "TokenKindsModel",
    "VariantModel",
    "WebhooksModel",
  ];
  const specDecls = operations.map((o) => o.specDecl);
  const modelDecl = statement(0, "MODEL = ", serviceModel(ir, specs));
  const used = modelImports.filter((n) => {
    const called = new RegExp(`\\b${n}\\(`);
    return called.test(modelDecl) || specDecls.some((text) => called.test(text));
  });
  const clientText = [
    ...operations.flatMap((o) => [o.syncDef, o.syncCall, o.returnLine, ...(o.pager ? [o.pager.syncDef, o.pager.syncReturn] : [])]),
    ...pipelineViews.map((p) => `${p.syncDef}${p.returnLine}`),
  ].join("\n");
  const env = envNames(ir);
  const title = ir.info.title.replace(/\s+/g, " ").trim();
  // `release R...` for a release id, else `version 1.2.0`.
  const release = `${versionWord(ir.info.version)} ${ir.info.version.replace(/\s+/g, " ").trim()}`;
  const moduleDoc = (...paragraphs: string[]) => docstring(paragraphs.join("\n\n"), 0);
  const clientDocs = (async: boolean) => ({
    moduleDoc: moduleDoc(
      `The ${title} ${async ? "asyncio " : ""}client, ${release}: one method per operation${
        pipelineViews.length > 0 ? ", and submit-and-wait per pipeline" : ""
      }, over \`\`paperoffice_runtime\`\`. ${async ? "The blocking twin is ``Client`` in client.py." : "The asyncio twin is ``AsyncClient`` in aio.py."}`,
      "Each method returns what the description declares for the status of the answer: None without content, ``str`` for a text media type, a ``Download`` for a binary one, and a pydantic model (from ``models``) where JSON is declared. Retries, deadlines, credentials, redaction and errors are the runtime's (see its README).",
    ),
    classDoc: docstring(
      [
        `A${async ? "n asyncio" : ""} client of the service: one connection pool, kept alive between calls (close it with ${
          async ? "``await client.aclose()``" : "``client.close()``"
        } or a \`\`${async ? "async " : ""}with\`\` block).`,
        `\`\`token\`\` (default: the environment variable ${env.token}) is the bearer token, and the API key when \`\`api_key\`\` is not given; \`\`base_url\`\` defaults to ${env.baseUrl}, else the description's first server. \`\`deadline\`\` bounds one call, retries included (seconds); \`\`job_deadline\`\` one submit-and-wait; \`\`timeout\`\` one socket operation. \`\`secrets\`\` are further strings kept out of every error (the credentials always are).`,
        `Logging goes to the \`\`logging\`\` logger \`\`${names.module}\`\`; ${env.log}=debug (or info, warn, error) sets its level and adds a stderr handler, ${env.log}=off silences it.`,
      ].join("\n\n"),
      4,
    ),
  });
  const typesModuleDoc = (prefixText: string) =>
    moduleDoc(
      `Types of the ${title} client, ${release}: one module of the \`\`types\`\` package (which re-exports them), with the names from ${prefixText} (by their first letters, ignoring case).`,
      "Request bodies and other values the client sends, as TypedDicts, each named ``<Name>Param`` where the ``models`` package names the pydantic model of the same schema ``<Name>``. Names of other modules are imported at the end: every module's own names exist before another module imports them, so the modules may refer to each other in cycles, and ``typing.get_type_hints`` resolves them.",
    );
  const modelsModuleDoc = (prefixText: string) =>
    moduleDoc(
      `Models of the ${title} client, ${release}: one module of the \`\`models\`\` package (which re-exports them), with the names from ${prefixText} (by their first letters, ignoring case).`,
      "The answers the client returns, validated by pydantic. Fields the description does not name (yet) are kept, so a later release that adds fields never breaks parsing. Names of other modules are imported at the end.",
    );
  const docs = {
    init: moduleDoc(
      `Python client of ${title}, ${release} (IR ${ir.irVersion}), over \`\`paperoffice_runtime\`\`.`,
      "``Client`` blocks; ``AsyncClient`` is its asyncio twin with the same methods, each awaited. ``models`` holds the answers (pydantic), ``types`` the request bodies (TypedDicts), ``errors`` one class per error code.",
    ),
    errors: moduleDoc(
      `Errors of the ${title} client: one class per error code of the description. A code's class extends the runtime's class of the code's HTTP status (BadRequestError, ... InternalServerError) when the description gives the code exactly one status that has a class, else ServiceError; an answer with a code the table does not know raises the class of its status.`,
    ),
    model: moduleDoc(
      `What the ${title} description, ${release}, tells the runtime: its operations, error table, ${
        pipelineViews.length > 0 ? "pipelines, pricing, " : ""
      }security schemes, servers, conventions and job roles, as \`\`paperoffice_runtime\`\` data.`,
    ),
    models: moduleDoc(
      `Models of the ${title} client, ${release}: what the methods return, validated by pydantic.`,
      "Each is a ``paperoffice_runtime.BaseModel``: fields the description does not name (yet) are kept. The declarations live in the modules beside this one; every name is imported from here.",
    ),
    types: moduleDoc(
      `Types of the ${title} client, ${release}: named schemas${
        pipelineViews.length > 0 ? ", job request bodies per pipeline and variant (discriminated unions)" : ", request bodies"
      }, and webhook events.`,
      "Each schema's TypedDict is named ``<Name>Param``: ``<Name>`` is its pydantic model in ``models``, so that no name means both. The declarations live in the modules beside this one (split by name, so that each stays small enough for a type checker); every name is imported from here.",
    ),
  };
  return {
    outDir: "python",
    place: (file) => (file === "pyproject.toml" || file === "README.md" ? file : `${names.module}/${file}`),
    comment: "#",
    commentEscaper: pyComment,
    data: {
      module: names.module,
      distribution: names.distribution,
      distributionToml: tomlString(names.distribution),
      version: tomlString(pythonVersion(ir.info.version)),
      summaryToml: tomlString(
        `Python client of ${ir.info.title.replace(/\s+/g, " ").trim()}, ${versionLabel(ir.info.version)} (description sha256 ${ir.info.descriptionHash})`,
      ),
      titleLine: markdownText(ir.info.title),
      releaseMarkdown: markdownText(ir.info.version),
      readmeBaseUrl: pyString(firstServer),
      operationServers: ir.operations.some((o) => o.servers !== undefined),
      title: docText(ir.info.title),
      release: pyString(ir.info.version),
      releaseText: docText(ir.info.version),
      descriptionHash: pyString(ir.info.descriptionHash),
      irVersionText: docText(ir.irVersion),
      typesImports: reexports(home),
      modelsImports: reexports(models.home),
      tokenEnvText: docText(env.token),
      tokenEnvComment: pyComment(env.token),
      // The first operation callable without arguments (no required parameter or body), outside the pipelines.
      example: ir.operations
        .filter((o) => o.variants === undefined && o.requestBody?.required !== true)
        .filter(
          (o) => ![...o.parameters.path, ...o.parameters.query, ...o.parameters.header, ...o.parameters.cookie].some((p) => p.required),
        )
        .map((o) => planned.method(o))[0],
      pipelineExample: pipelineViews[0]?.method,
      pagers: ir.operations.filter((_o, i) => operations[i]?.pager !== undefined).map((o) => planned.paginate(o)),
      pipelineType: pipelineViews[0]?.requestName,
      versionMarkdown: markdownText(capitalized(versionLabel(ir.info.version))),
      distributionGuessed: options.distribution === undefined,
      ...readmeCredentials(ir, pyString(firstServer)),
      baseUrlEnvText: docText(env.baseUrl),
      // envNames makes it of A-Z, 0-9 and _ only: nothing to escape in a code span.
      baseUrlEnvMarkdown: `\`${env.baseUrl}\``,
      logEnvMarkdown: `\`${env.log}\``,
      modelImports: used,
      specDecls,
      modelDecl,
      operations,
      pipelines: pipelineViews,
      hasPipelines: pipelineViews.length > 0,
      jobs: jobs !== undefined,
      errors,
      errorTable,
      hasWebhooks: ir.webhooks.length > 0,
      usesDeprecated: ir.operations.some((o) => o.deprecated),
      eventUnion: statement(0, "WebhookEvent: _t.TypeAlias = ", valueExpr(eventUnion)),
      deliveries,
      docs,
      usesTypes: clientText.includes("_ty."),
      usesModels: clientText.includes("_md."),
    },
    variants: {
      "client.py": [
        { file: "client.py", data: { async: false, clientClass: "Client", ...clientDocs(false) } },
        { file: "aio.py", data: { async: true, clientClass: "AsyncClient", ...clientDocs(true) } },
      ],
      // The types package: its __init__ re-exports the names of the modules beside it.
      "types.py": [{ file: "types/__init__.py", data: {} }],
      "types-base.py": [{ file: `types/${BASE_MODULE}.py`, data: {} }],
      "types-module.py": modules.map((m) => ({ file: m.file, data: { ...m, moduleDoc: typesModuleDoc(m.prefixText) } })),
      "models.py": [{ file: "models/__init__.py", data: {} }],
      "models-base.py": [{ file: `models/${BASE_MODULE}.py`, data: {} }],
      "models-module.py": models.modules.map((m) => ({ file: m.file, data: { ...m, moduleDoc: modelsModuleDoc(m.prefixText) } })),
    },
  };
}
