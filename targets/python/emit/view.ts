import { pascalCase } from "../../../generator/ir/names.js";
import type { IR, JobDownload, JobPoll, JobSubmit, Operation, Pipeline } from "../../../generator/ir/types.js";
import { pyComment, pyDocInline, pyDocstring, pyLiteralText, pyString } from "./escape.js";
import { PY_KEYWORDS, type PyNames, planPythonNames, snakeCase } from "./names.js";
import { isPyRef, printPyType, type PyType, pyBuiltin, pyOptional, pyRef, pyTypeRefs, pyUnion } from "./py-type.js";
import { type Decl, TypeScope } from "./type-scope.js";
import { BASE_MODULE, reexports, typesModules } from "./type-modules.js";
import { releaseIdProblem, releaseToVersion } from "../../../generator/releases/version.js";
import type { LanguageView } from "../../../generator/emit/templated.js";
import { envNames } from "../../../generator/emit/env-names.js";
import { rawBodyMediaType } from "../../../generator/emit/operation-files.js";

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

export interface OperationView {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly signature: string;
  readonly doc: string;
  readonly pathArgs: string;
  readonly queryArgs: string;
  readonly headerArgs: string;
  readonly cookieArgs: string;
  readonly hasJsonBody: boolean;
  readonly hasFormBody: boolean;
  /** A body sent as it is (text or bytes), of `requestMediaType`. */
  readonly hasRawBody: boolean;
  /** The Content-Type of a JSON or raw body (a Python string literal). */
  readonly requestMediaType: string;
  readonly returnType: string;
  /** Every declared success answer is without content: the method returns None. */
  readonly noContent: boolean;
  /** The declared success answers as `_answer` reads them (a Python dict literal), or false when none is declared. */
  readonly answers: string | false;
  /** The Accept header: the operation's declared media types (a Python string literal), or None. */
  readonly accept: string;
  /** May be sent again after a failure that may have reached the server (Python True or False). */
  readonly resendable: string;
  /** The job submission (Python True or False): a failure after it may have reached the server means the job may exist. */
  readonly jobSubmission: string;
  /** The job submission: its success answer is read as an envelope whose loss means the job may exist. */
  readonly submission: boolean;
  /** The operation's security alternatives as a Python tuple of tuples of scheme names. */
  readonly security: string;
}

/** The job submission of the description (`x-paperoffice-job` role submit). */
const isJobSubmission = (op: Operation): boolean => op.job?.role === "submit";

/**
 * Whether a request may be sent again after a failure that may have reached the server: the IR's `idempotent`
 * (`x-idempotent`, else the HTTP-idempotent methods, never a billed operation), and never a job submission.
 */
const isResendable = (op: Operation): boolean => op.idempotent && !isJobSubmission(op);

const pyBool = (value: boolean): string => (value ? "True" : "False");

/** A Python tuple literal of literals (a one-element tuple keeps its comma). */
const pyTuple = (items: readonly string[]): string => `(${items.join(", ")}${items.length === 1 ? "," : ""})`;

/** An operation's security alternatives, any one of which is enough, as a Python tuple of tuples of scheme names. */
const securityOf = (op: Operation): string =>
  pyTuple(op.security.map((requirement) => pyTuple(requirement.map((s) => pyString(s.scheme)))));

/** The description's security schemes as support.py declares them, as the TypeScript model has them. */
function securitySchemes(ir: IR) {
  return ir.securitySchemes.map((s) => ({
    name: pyString(s.name),
    type: pyString(String(s.type)),
    scheme: pyString(s.type === "http" ? (s.scheme ?? "bearer").toLowerCase() : ""),
    location: pyString(s.type === "apiKey" ? (s.in ?? "header") : ""),
    parameter: pyString(s.type === "apiKey" ? (s.parameterName ?? "") : ""),
  }));
}

/** A regular expression (as a Python string literal) matching a path of a template; `capture` names the one parameter captured. */
function pathPattern(template: string, capture?: string): string {
  const literal = (part: string) => part.replace(/[.^$*+?()[\]{}|\\]/g, "\\$&");
  const parts = template.split(/(\{[^}]+\})/);
  const body = parts.map((part, i) => (i % 2 === 0 ? literal(part) : part === `{${capture}}` ? "([^/]+)" : "[^/]+")).join("");
  return pyString(`^${body}$`);
}

/** Declared types as the clients write them: through the types package, imported as `_ty`. */
const client = (type: PyType): string => printPyType(type, (id) => `_ty.${id}`);

/** The client's Download in a return type: not a name of the types package (no identifier has a space). */
const DOWNLOAD = " Download";

/** How the client reads a body of a media type: JSON (as the TypeScript client tells it), text, or bytes. */
type AnswerKind = "json" | "text" | "binary";

const essence = (mediaType: string): string => mediaType.split(";")[0]!.trim().toLowerCase();

function answerKind(mediaType: string): AnswerKind {
  const type = essence(mediaType);
  if (type.includes("json")) return "json";
  const subtype = type.split("/")[1] ?? "";
  if (type.startsWith("text/") || subtype === "xml" || subtype.endsWith("+xml") || subtype === "yaml" || subtype === "x-yaml") {
    return "text";
  }
  return "binary";
}

/** A media type or range as an Accept header may list it: a type, a subtype and parameters without a comma. */
const ACCEPTABLE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[^,\r\n"]*)?$/;

/** The Accept header of an operation: the declared media types of its success answers, then of its other ones. */
function acceptOf(op: Operation): string {
  const ordered = [...op.responses.filter((r) => r.status.startsWith("2")), ...op.responses.filter((r) => !r.status.startsWith("2"))];
  const seen = new Set<string>();
  const types: string[] = [];
  for (const content of ordered.flatMap((r) => r.contents)) {
    const type = content.mediaType.trim();
    if (!ACCEPTABLE.test(type) || seen.has(type.toLowerCase())) continue;
    seen.add(type.toLowerCase());
    types.push(type);
  }
  return types.length === 0 ? "None" : pyString(types.join(", "));
}

/** The success answers: the declared 2xx statuses, and a 2XX range as the one for any other success status (0). */
const successResponses = (op: Operation) => op.responses.filter((r) => /^2(?:\d\d|XX)$/i.test(r.status));

function operationView(op: Operation, scope: TypeScope, names: PyNames, jobs: boolean): OperationView {
  const args: string[] = ["self"];
  const mapping = (params: Operation["parameters"]["query"]): { entries: string; required: string[]; optional: string[] } => {
    const required: string[] = [];
    const optional: string[] = [];
    const entries = params
      .map((p) => {
        const id = names.param(op, p);
        const type = scope.expr(p.schema, `${pascalCase(op.identifier)}${pascalCase(p.name)}`);
        (p.required ? required : optional).push(p.required ? `${id}: ${client(type)}` : `${id}: ${client(pyOptional(type))} = None`);
        return `${pyString(p.name)}: ${id}`;
      })
      .join(", ");
    return { entries: `{${entries}}`, required, optional };
  };
  const path = mapping(op.parameters.path);
  const query = mapping(op.parameters.query);
  const header = mapping(op.parameters.header);
  const cookie = mapping(op.parameters.cookie);
  const bodies = op.requestBody?.contents ?? [];
  const json = bodies.find((c) => c.mediaType === "application/json") ?? bodies.find((c) => c.mediaType.includes("json"));
  const rawType = rawBodyMediaType(op);
  const form = !json && rawType === undefined && op.requestBody !== undefined;
  args.push(...path.required, ...path.optional);
  if (json) {
    const type = scope.expr(json.schema, `${pascalCase(op.identifier)}Body`);
    // An open object takes further properties: a plain JSON object is accepted too.
    args.push(`body: ${client(scope.isOpen(json.schema) && type.kind !== "dict" ? pyUnion([type, pyRef("JsonObject")]) : type)}`);
  }
  if (form) args.push("body: _t.Mapping[str, object]");
  if (rawType !== undefined) args.push("body: _t.Union[str, bytes]");
  // Every call takes its own deadline (seconds, retries included); a parameter of that name became `deadline_`.
  args.push(
    "*",
    ...query.required,
    ...header.required,
    ...cookie.required,
    ...query.optional,
    ...header.optional,
    ...cookie.optional,
    "deadline: _t.Optional[float] = None",
  );
  // Each success status: None without content, else what its media types are read as; a JSON schema seen before
  // (the same in another status or media type) gives the type it gave.
  const successes = successResponses(op);
  const returned: PyType[] = [];
  const jsonTypes = new Map<string, PyType>();
  const answerEntries = successes.map((r) => {
    if (r.contents.length === 0) returned.push(pyBuiltin("None"));
    const contents = r.contents.map((c) => {
      const kind = answerKind(c.mediaType);
      if (kind === "text") returned.push(pyBuiltin("str"));
      else if (kind === "binary") returned.push(pyRef(DOWNLOAD));
      else {
        const key = JSON.stringify(c.schema);
        let type = jsonTypes.get(key);
        if (type === undefined) {
          type = scope.expr(c.schema, `${pascalCase(op.identifier)}Response${jsonTypes.size === 0 ? "" : jsonTypes.size + 1}`);
          jsonTypes.set(key, type);
        }
        returned.push(type);
      }
      return `(${pyString(c.mediaType)}, ${pyString(kind)})`;
    });
    return `${/^2\d\d$/.test(r.status) ? r.status : "0"}: ${pyTuple(contents)}`;
  });
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
  const returnType = printPyType(answerType, (id) => (id === DOWNLOAD ? "Download" : `_ty.${id}`));
  const docBody = [
    op.summary,
    op.description,
    `${op.method.toUpperCase()} ${op.path}`,
    op.errorCodes.length > 0 ? `Error codes: ${op.errorCodes.join(", ")}.` : undefined,
    jobs && isJobSubmission(op) && op.variants
      ? "A single submission: no waiting. The submit_<pipeline> methods submit and wait."
      : undefined,
  ]
    .filter((t): t is string => t !== undefined && t.trim() !== "")
    .map((t) => t.trim())
    .join("\n\n");
  return {
    name: names.method(op),
    method: pyString(op.method.toUpperCase()),
    path: pyString(op.path),
    signature: args.join(", "),
    doc: docstring(docBody, 8),
    pathArgs: path.entries,
    queryArgs: query.entries,
    headerArgs: header.entries,
    cookieArgs: cookie.entries,
    hasJsonBody: json !== undefined,
    hasFormBody: form,
    hasRawBody: rawType !== undefined,
    requestMediaType: pyString(
      json !== undefined ? json.mediaType : rawType === undefined ? "" : rawType.includes("*") ? "application/octet-stream" : rawType,
    ),
    returnType,
    noContent,
    answers: successes.length === 0 ? false : `{${answerEntries.join(", ")}}`,
    accept: acceptOf(op),
    resendable: pyBool(isResendable(op)),
    jobSubmission: pyBool(isJobSubmission(op)),
    submission: isJobSubmission(op),
    security: securityOf(op),
  };
}

export interface PipelineView {
  readonly slug: string;
  readonly slugLiteral: string;
  readonly method: string;
  readonly requestType: string;
  readonly payloadType: string;
  readonly castPayload: boolean;
  readonly jsonText: string;
  readonly doc: string;
}

/** The operations that submit and poll jobs, when the description marks both (`x-paperoffice-job`). */
function jobFacts(ir: IR): { submit: Operation & { job: JobSubmit }; poll: Operation & { job: JobPoll } } | undefined {
  const submit = ir.operations.find((o): o is Operation & { job: JobSubmit } => o.job?.role === "submit");
  const polls = ir.operations.filter((o): o is Operation & { job: JobPoll } => o.job?.role === "poll");
  const poll = polls.find((o) => o.id === submit?.job.poll) ?? polls[0];
  return submit === undefined || poll === undefined ? undefined : { submit, poll };
}

/** The job facts as the templates write them: Python literals, and docstring text. */
function jobsView({ submit, poll }: NonNullable<ReturnType<typeof jobFacts>>) {
  const { noWait, stillRunningStatus } = submit.job;
  const selector = submit.variants?.selector ?? (submit.parameters.path.length === 1 ? submit.parameters.path[0]!.name : undefined);
  const code = (text: string) => `\`\`${docText(text)}\`\``;
  return {
    submitMethod: pyString(submit.method.toUpperCase()),
    submitPath: pyString(submit.path),
    submitSecurity: securityOf(submit),
    pollSecurity: securityOf(poll),
    submitPathParams: selector === undefined ? "{}" : `{${pyString(selector)}: pipeline}`,
    jobIdField: pyString(submit.job.jobId),
    pollUrlField: submit.job.pollUrl === undefined ? "None" : pyString(submit.job.pollUrl),
    stillRunningStatus: stillRunningStatus === undefined ? "None" : String(stillRunningStatus),
    stillRunningText: stillRunningStatus === undefined ? "" : `a ${stillRunningStatus} (still running) or `,
    noWait:
      noWait === undefined
        ? false
        : {
            body: `{**body, ${pyString(noWait.field)}: ${pyLiteralText(noWait.value)}}`,
            valueText: docText(pyLiteralText(noWait.value)),
            fieldText: code(noWait.field),
          },
    // Waiting is asked for by the opposite of a boolean no-wait value; another value has no opposite to send.
    hold:
      typeof noWait?.value === "boolean"
        ? { field: pyString(noWait.field), value: pyBool(!noWait.value), valueText: pyBool(!noWait.value), fieldText: code(noWait.field) }
        : false,
    pollMethod: pyString(poll.method.toUpperCase()),
    pollPath: pyString(poll.path),
    pollParam: pyString(poll.job.jobIdParameter),
    pollResendable: pyBool(isResendable(poll)),
    pollPattern: pathPattern(poll.path),
    statusField: pyString(poll.job.status),
    completed: pyString(poll.job.completed),
    payloadFields: `(${poll.job.payload.map(pyString).join(", ")}${poll.job.payload.length === 1 ? "," : ""})`,
    payloadText: poll.job.payload.map(code).join(", else "),
  };
}

/** What differs between the blocking client (client.py) and the asyncio one (aio.py), both from client.py.hbs. */
function flavour(async: boolean) {
  return async
    ? {
        async,
        clientClass: "AsyncClient",
        handleClass: "AsyncJobHandle",
        adef: "async def",
        aw: "await ",
        exchange: "_tr.exchange_async",
        sleep: "await asyncio.sleep",
      }
    : { async, clientClass: "Client", handleClass: "JobHandle", adef: "def", aw: "", exchange: "_tr.exchange", sleep: "time.sleep" };
}

/** The view data of the Python client: everything the templates in templates/python/ read. */
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
        `The body of pipeline ${pipeline.slug}${pipeline.discriminators.length > 0 ? `, discriminated by ${pipeline.discriminators.join(", ")}` : ""}.`,
      ),
    });
  }

  const operations = ir.operations.map((o) => operationView(o, scope, planned, jobs !== undefined));
  const pipelineViews: PipelineView[] = (jobs === undefined ? [] : pipelines).map((p) => {
    const payload = pyUnion(p.variants.map((v) => (v.payload ? scope.expr(v.payload, `${p.identifier}Payload`) : pyRef("JsonValue"))));
    const request = pyRef(planned.pipelineType(p));
    const jsonText = [...new Set(p.variants.flatMap((v) => v.jsonStrings))].sort();
    return {
      slug: p.slug,
      slugLiteral: pyString(p.slug),
      method: planned.submit(p),
      requestType: client(p.variants.some((v) => v.open) ? pyUnion([request, pyRef("JsonObject")]) : request),
      payloadType: client(payload),
      castPayload: !isPyRef(payload, "JsonValue"),
      jsonText: `frozenset({${jsonText.map(pyString).join(", ")}})`,
      doc: docstring(
        [
          p.summary,
          `Submits a job to pipeline ${p.slug} and waits for its payload (\`${p.payloadAfterPolling}\` after polling).`,
          p.baseCredits !== undefined ? `Base price: ${p.baseCredits} credits, times the lane multiplier.` : undefined,
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
      code: pyString(e.code),
      status: e.status,
      doc: docstring(`HTTP ${e.status} ${e.code}: ${e.description ?? ""}`.trim(), 4),
    }));

  const events = ir.webhooks.map((w) => ({ event: pyString(w.event) }));
  const eventTypes = ir.webhooks.map((w) => scope.expr(w.body, `${w.identifier}Event`));
  scope.flush();
  const eventUnion = eventTypes.length === 0 ? pyRef("JsonObject") : pyUnion(eventTypes);
  const { modules, home } = typesModules([...scope.decls, ...requestDecls]);
  const initImports = reexports(home);
  // WebhookEvent's references are names __init__.py imports; another one would be undefined there.
  const undeclared = [...pyTypeRefs(eventUnion)].filter((id) => !home.has(id) || id.startsWith("_"));
  if (undeclared.length > 0) throw new Error(`python types: WebhookEvent refers to ${undeclared.join(", ")}, not exported`);
  const headerNamed = (pattern: RegExp, fallback: string): string =>
    pyString(ir.webhooks.flatMap((w) => w.headers).find((h) => pattern.test(h.name))?.name ?? fallback);
  const download = ir.operations.find((o): o is Operation & { job: JobDownload } => o.job?.role === "download");
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
      summaryToml: tomlString(`Python client of ${ir.info.title.replace(/\s+/g, " ").trim()}, release ${ir.info.version}`),
      titleLine: markdownText(ir.info.title),
      releaseMarkdown: markdownText(ir.info.version),
      readmeBaseUrl: pyString(
        (ir.servers[0]?.variables ?? []).reduce(
          (url, v) => url.replaceAll(`{${v.name}}`, v.default),
          ir.servers[0]?.url ?? "http://127.0.0.1/",
        ),
      ),
      title: docText(ir.info.title),
      release: pyString(ir.info.version),
      releaseText: docText(ir.info.version),
      descriptionHash: pyString(ir.info.descriptionHash),
      irVersionText: docText(ir.irVersion),
      defaultBaseUrl: pyString(
        (ir.servers[0]?.variables ?? []).reduce(
          (url, v) => url.replaceAll(`{${v.name}}`, v.default),
          ir.servers[0]?.url ?? "http://127.0.0.1/",
        ),
      ),
      typesImports: initImports,
      securitySchemes: securitySchemes(ir),
      tokenEnv: pyString(envNames(ir).token),
      // The envelope whose status marks an error whatever the HTTP status; a description without one has none.
      envelope:
        ir.conventions?.envelope === undefined
          ? false
          : { status: pyString(ir.conventions.envelope.status), error: pyString(ir.conventions.envelope.error) },
      tokenEnvText: docText(envNames(ir).token),
      tokenEnvComment: pyComment(envNames(ir).token),
      operations,
      usesJson: operations.some((o) => o.hasJsonBody),
      pipelines: pipelineViews,
      hasPipelines: pipelineViews.length > 0,
      hasSubmission: operations.some((o) => o.submission),
      jobs: jobs === undefined ? false : jobsView(jobs),
      download:
        download === undefined
          ? false
          : {
              method: pyString(download.method.toUpperCase()),
              path: pyString(download.path),
              param: pyString(download.job.tokenParameter),
              resendable: pyBool(isResendable(download)),
              security: securityOf(download),
              pattern: pathPattern(download.path, download.job.tokenParameter),
            },
      errors,
      events,
      eventUnion: printPyType(eventUnion, pyString),
      signatureHeader: headerNamed(/signature/i, "X-Service-Signature"),
      eventIdHeader: headerNamed(/event-id/i, "X-Service-Event-ID"),
    },
    variants: {
      "client.py": [
        { file: "client.py", data: flavour(false) },
        { file: "aio.py", data: flavour(true) },
      ],
      // The types package: its __init__ re-exports the names of the modules beside it.
      "types.py": [{ file: "types/__init__.py", data: {} }],
      "types-base.py": [{ file: `types/${BASE_MODULE}.py`, data: {} }],
      "types-module.py": modules.map((m) => ({ file: m.file, data: m })),
    },
  };
}
