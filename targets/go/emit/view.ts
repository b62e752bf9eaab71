/**
 * The Go target's view: every name planned and every declaration printed from the IR, handed to the templates as
 * text. Names are claimed in a fixed order (the templates' own, schemas, error codes, operations, pipelines), so
 * the output is the same on every run.
 */
import { envNames, envPrefix } from "../../../generator/emit/env-names.js";
import { readmeAuth, versionLabel, versionWord } from "../../../generator/emit/readme-facts.js";
import { codeStatusClass, errorCodeWordsOf } from "../../../generator/emit/error-names.js";
import type { LanguageView } from "../../../generator/emit/templated.js";
import { flattenObject } from "../../../generator/ir/index.js";
import type { IR } from "../../../generator/ir/types.js";
import { goComment, goDoc, goString, markdownCode, markdownText } from "./escape.js";
import { examplesFile, type PlannedOperation } from "./examples.js";
import { GoTypes } from "./go-type.js";
import { modelStatements } from "./model.js";
import { operationLiteral } from "./operation-spec.js";
import {
  GO_CLIENT_MEMBERS,
  GO_KEYWORDS,
  GO_PACKAGE_NAMES,
  GO_PREDECLARED,
  goErrorName,
  goName,
  NameScope,
  packageName,
  titleSlug,
} from "./names.js";
import { type GoOperationPlan, operationCode } from "./operations.js";
import { type GoPipelinePlan, pipelinesCode } from "./pipelines.js";
import { goMajorSuffix, goModuleVersion } from "./version.js";

export interface GoOptions {
  /** The generated module's path, for example `github.com/acme/service-sdk-go`. */
  readonly module?: string;
  /** The Go package name. */
  readonly package?: string;
}

/**
 * The runtime module the generated module requires, and its version: the first to hold what generated code calls
 * (Response, the Request setters, DecodeObject and EncodeObject... from v0.2.0; Nullable from v0.3.0; unions,
 * DecodeOptional, Meta.BillingJSON, Pagination, Pages and Items from v0.4.0).
 */
export const RUNTIME_MODULE = "github.com/paperoffice/sdk-runtime-go";
export const RUNTIME_VERSION = "v0.4.0";

/**
 * The module path and package name. The default module path is below example.com, a domain reserved for examples
 * (RFC 2606): the description names no repository, and a path there can never fetch someone else's code; set
 * `module` to publish.
 */
export function goNames(title: string, options: GoOptions = {}): { module: string; package: string } {
  const names = {
    module: options.module ?? `example.com/${titleSlug(title)}-sdk-go`,
    package: options.package ?? packageName(title),
  };
  // A flag's value reaches here unchecked by the options schema: the same rules, said once more.
  if (
    !/^[a-z][a-z0-9]*$/.test(names.package) ||
    GO_KEYWORDS.has(names.package) ||
    GO_PREDECLARED.has(names.package) ||
    names.package === "sdkruntime"
  ) {
    throw new Error(`go: the package name "${names.package}" is not a lowercase Go identifier free for a package`);
  }
  if (!/^[a-z0-9][a-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/.test(names.module)) {
    throw new Error(`go: the module path "${names.module}" is not a valid Go module path`);
  }
  return names;
}

const STD_IMPORTS = [
  ["bytes", /\bbytes\./],
  ["context", /\bcontext\./],
  ["encoding/json", /\bjson\./],
  ["fmt", /\bfmt\./],
  ["io", /\bio\./],
  ["net/http", /\bhttp\./],
  ["reflect", /\breflect\./],
  ["strconv", /\bstrconv\./],
  ["strings", /\bstrings\./],
  ["sdkruntime", /\bsdkruntime\./],
] as const;

/** A package's name as code uses it (the last part of its path), and the pattern of any of them. */
const BY_WORD = new Map(STD_IMPORTS.map((entry) => [entry[0].split("/").at(-1)!, entry]));
const ANY_IMPORT = new RegExp(`\\b(?:${[...BY_WORD.keys()].join("|")})\\.`, "g");

/**
 * Standard-library and runtime imports a file's declarations use, as an import block ("" for none). Each
 * declaration is read on its own: a large description's file is tens of MB, and copies of the whole text to read
 * it would cost as much memory again several times.
 */
function imports(declarations: readonly string[]): string {
  const wanted = new Set<string>();
  for (const declaration of declarations) {
    if (wanted.size === STD_IMPORTS.length) break;
    // A name the whole text does not show is not in its code either: most declarations need no second look. One
    // pattern of all names reads a declaration once, not once per package.
    const candidates = new Set<(typeof STD_IMPORTS)[number]>();
    for (const [word] of declaration.matchAll(ANY_IMPORT)) {
      const found = BY_WORD.get(word.slice(0, -1))!;
      if (!wanted.has(found[0])) candidates.add(found);
    }
    if (candidates.size === 0) continue;
    // Only code counts: comments and string literals may name a package too.
    const bare = declaration
      .replace(/^[ \t]*\/\/.*$/gm, "")
      .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
      .replace(/`[^`]*`/g, "``");
    for (const [path, pattern] of candidates) if (pattern.test(bare)) wanted.add(path);
  }
  const used = STD_IMPORTS.filter(([path]) => path !== "sdkruntime" && wanted.has(path)).map(([path]) => `\t${goString(path)}`);
  const runtime = wanted.has("sdkruntime") ? [`\tsdkruntime ${goString(RUNTIME_MODULE)}`] : [];
  if (used.length + runtime.length === 0) return "";
  const groups = [used, runtime].filter((g) => g.length > 0).map((g) => g.join("\n"));
  return `import (\n${groups.join("\n\n")}\n)`;
}

/**
 * A Go file's text after the package clause: imports and declarations, each after a blank line. The declarations are
 * joined once: a large description's operations are tens of MB, and a second join would copy them again.
 */
function goFile(declarations: readonly string[]): { body: string } {
  const head = imports(declarations);
  const code = declarations.join("\n\n");
  if (head === "") return { body: code === "" ? "" : `\n\n${code}` };
  return { body: code === "" ? `\n\n${head}` : `\n\n${head}\n\n${code}` };
}

/** The error-code constants of the module (errors.go), by code. */
export function goErrorNames(ir: IR, options: GoOptions = {}): ReadonlyMap<string, string> {
  return planGo(ir, options).errorNames;
}

/** What a caller of the generated module needs to know about each operation's method, in the IR's order. */
export function goOperationPlans(ir: IR, options: GoOptions = {}): readonly GoOperationPlan[] {
  return planGo(ir, options).plans;
}

/** The names and declarations of the module, claimed in their fixed order. */
function planGo(ir: IR, options: GoOptions) {
  const names = goNames(ir.info.title, options);
  // A version from major 2 on needs its /vN at the end of the module path (Go's rule): without it, no version of
  // this path can carry it, so the README pins none (publish refuses it and says so).
  const moduleVersion = goModuleVersion(ir.info.version);
  const version = moduleVersion !== undefined && names.module.endsWith(goMajorSuffix(moduleVersion)) ? moduleVersion : undefined;
  const scope = new NameScope(GO_PACKAGE_NAMES);
  const types = new GoTypes(ir, scope);
  types.declareNamed();
  const codeWords = errorCodeWordsOf(ir);
  const errorNames = new Map<string, string>();
  const errors = ir.errors
    .filter((e, i, all) => all.findIndex((x) => x.code === e.code) === i)
    .map((e) => {
      const name = scope.claim(goErrorName(codeWords.get(e.code) ?? [e.code.toLowerCase()]));
      errorNames.set(e.code, name);
      // The code's status class when the description gives the code exactly one status that has one.
      const status = codeStatusClass(ir, e.code);
      const also = status === undefined ? "" : `, as is sdkruntime.Err${status.name.replace(/Error$/, "")}`;
      const what = `is the error code ${goString(e.code)} (HTTP ${e.status}); match it with errors.Is${also}.`;
      return `${goDoc(name, what, e.description)}\nconst ${name} = sdkruntime.ErrorCode(${goString(e.code)})`;
    });
  const methods = new NameScope(GO_CLIENT_MEMBERS);
  const operations: string[] = [];
  const plans: GoOperationPlan[] = [];
  const planned: PlannedOperation[] = [];
  const opVars = new Map<string, string>();
  const submission = ir.operations.find((o) => o.variants !== undefined && o.variants.pipelines.length > 0);
  const plannedOps = ir.operations.map((op) => {
    const method = methods.claim(goName(op.identifier, "Operation"));
    const opVar = `op${method}`;
    opVars.set(op.id, opVar);
    return { op, method, opVar };
  });
  // The iterators of paged reads, named after every operation's method has its name.
  const pagers = new Map(
    plannedOps
      .filter(({ op }) => op.pagination !== undefined && op !== submission)
      .map(({ op, method }) => [op.id, { items: methods.claim(`Paginate${method}`), pages: methods.claim(`Paginate${method}Pages`) }]),
  );
  for (const { op, method, opVar } of plannedOps) {
    if (op === submission) {
      operations.push(
        `// ${opVar} describes ${goComment(op.id)} to the runtime; its pipelines have their own methods.\nvar ${opVar} = ${operationLiteral(op)}`,
      );
      continue;
    }
    const paginate = pagers.get(op.id);
    const { code, plan } = operationCode(
      op,
      { method, params: scope.claim(`${method}Params`), opVar, ...(paginate === undefined ? {} : { paginate }) },
      types,
      ir,
    );
    operations.push(code);
    plans.push(plan);
    planned.push({ op, plan });
  }
  const pipelinePlans: GoPipelinePlan[] = [];
  const jobs = submission ? pipelinesCode(submission, types, scope, methods, pipelinePlans) : [];
  const billing = billingCode(ir, types, scope);
  if (billing !== undefined) operations.push(billing.code);
  const examples = examplesFile(ir, planned, submission && { op: submission, plans: pipelinePlans }, types, {
    ...names,
    env: `${envPrefix(ir.info.title)}_EXAMPLE_BASE_URL`,
    runtimeModule: RUNTIME_MODULE,
  });
  return { names, version, types, errors, errorNames, operations, opVars, plans, submission, jobs, examples, billing };
}

/**
 * BillingOf: the envelope's billing object of an answer (sdkruntime.Meta.BillingJSON) decoded into the type the
 * description gives the billing field (conventions.envelope.billing) in its schemas; undefined when it names none
 * or types it nowhere.
 */
function billingCode(ir: IR, types: GoTypes, scope: NameScope): { name: string; type: string; code: string } | undefined {
  const field = ir.conventions?.envelope?.billing;
  if (field === undefined) return undefined;
  const property = ir.schemas
    .flatMap((named) => {
      const s = types.resolve(named.schema);
      const object =
        s?.kind === "object"
          ? s
          : s?.kind === "intersection"
            ? flattenObject(s, new Map(ir.schemas.map((n) => [n.name, n.schema])))
            : undefined;
      return object?.properties.filter((p) => p.name === field) ?? [];
    })
    .find((p) => types.resolve(p.schema)?.kind === "object" || types.resolve(p.schema)?.kind === "intersection");
  if (property === undefined) return undefined;
  const t = types.expr(property.schema, "EnvelopeBilling", "string");
  if (t.kind !== "struct") return undefined;
  const name = scope.claim("BillingOf");
  const code = `${goDoc(name, `decodes the billing object of an answer (its field ${goString(field)}, meta.BillingJSON) into a ${t.code}; nil when the answer carried none.`, undefined)}\nfunc ${name}(meta sdkruntime.Meta) (*${t.code}, error) {\n\treturn sdkruntime.DecodeOptional[${t.code}](meta.BillingJSON, ${goString(t.code)})\n}`;
  return { name, type: t.code, code };
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The README's comment lines on the credentials the security schemes ask for, and New's options for the first kind. */
function readmeCredentials(ir: IR, pkg: string): { authComments: string[]; clientOptions: string } {
  const auth = readmeAuth(ir);
  const token = envNames(ir).token;
  const comments: string[] = [];
  if (auth.none) comments.push("The description declares no security scheme: the client sends no credentials.");
  if (auth.bearer) comments.push(`A bearer token: WithToken, by default from ${token}.`);
  if (auth.apiKeys.length > 0)
    comments.push(`An API key (${auth.apiKeys.join(", ")}): WithAPIKey, else WithToken or ${token} serves as the key.`);
  if (auth.basic) comments.push("HTTP basic authentication: WithBasicAuth.");
  const options = auth.bearer || auth.apiKeys.length > 0 ? "" : auth.basic ? `${pkg}.WithBasicAuth("<user name>", "<password>")` : "";
  return { authComments: comments.map(goComment), clientOptions: options };
}

export function goView(ir: IR, options: GoOptions = {}): LanguageView {
  const { names, version, types, errors, operations, opVars, plans, submission, jobs, examples, billing } = planGo(ir, options);
  const env = envNames(ir);
  const server = ir.servers[0];
  const defaultBaseUrl = server ? server.variables.reduce((url, v) => url.replaceAll(`{${v.name}}`, v.default), server.url) : "";
  const events = ir.webhooks.map((w) => w.event).filter((e, i, all) => all.indexOf(e) === i);
  const pipelineNames = submission?.variants?.pipelines.map((p) => p.slug) ?? [];
  return {
    outDir: "go",
    comment: "//",
    commentEscaper: goComment,
    data: {
      package: names.package,
      module: names.module,
      runtimeModule: RUNTIME_MODULE,
      runtimeVersion: RUNTIME_VERSION,
      title: goComment(ir.info.title),
      release: goString(ir.info.version),
      descriptionHash: goString(ir.info.descriptionHash),
      packageDoc: goDoc(
        `Package ${names.package}`,
        `is the Go client of ${goComment(ir.info.title)}, ${versionWord(ir.info.version)} ${goComment(ir.info.version)}.`,
        ir.info.description,
        "",
        {
          after: [
            "Create a client with New; every operation is a method of Client that takes a context.Context first. Errors are the runtime's (package sdkruntime): inspect them with errors.As and errors.Is.",
          ],
        },
      ),
      clientDoc: goDoc(
        "Client",
        `is the client of ${goComment(ir.info.title)}. It embeds the runtime's client, whose methods (Submit, Start, Wait, Download, Call...) it has too; each operation of the description is a method.`,
        undefined,
      ),
      newDoc: goDoc(
        "New",
        `returns a client. Without WithToken the token is read from the environment variable ${goComment(env.token)}; without WithBaseURL the base URL from ${goComment(env.baseUrl)}, else the description's first server.`,
        undefined,
      ),
      withTokenDoc: goDoc(
        "WithToken",
        `sets the bearer token (default: the environment variable ${goComment(env.token)}).`,
        undefined,
        "\t",
      ),
      tokenEnv: goComment(env.token),
      baseUrlEnv: goComment(env.baseUrl),
      logEnv: goComment(env.log),
      idempotencyKeys: ir.operations.some((o) => o.idempotencyKey !== undefined),
      model: modelStatements(ir, opVars).join("\n"),
      types: goFile(types.declarations),
      errors: goFile(errors),
      operations: goFile(operations),
      jobs: goFile(jobs),
      examples,
      events: `[]string{${events.map(goString).join(", ")}}`,
      readme: {
        title: markdownText(ir.info.title),
        release: markdownText(ir.info.version),
        module: markdownCode(names.module),
        // The module path is checked above and the version is made here: neither can close the code block.
        goGet: `${names.module}${version === undefined ? "" : `@${version}`}`,
        package: markdownCode(names.package),
        tokenEnv: markdownCode(env.token),
        baseUrlEnv: markdownCode(env.baseUrl),
        logEnv: markdownCode(env.log),
        defaultBaseUrl: defaultBaseUrl === "" ? false : markdownText(defaultBaseUrl),
        operationServers: ir.operations.some((o) => o.servers !== undefined),
        pipelines: pipelineNames.map(markdownCode),
        billing: billing === undefined ? false : { name: markdownCode(billing.name), type: markdownCode(billing.type) },
        pagers: plans.flatMap((p) => (p.paginate === undefined ? [] : [markdownCode(p.paginate)])),
        runtimeModule: RUNTIME_MODULE,
        runtimeVersion: RUNTIME_VERSION,
        tokenUsed: readmeAuth(ir).bearer || readmeAuth(ir).apiKeys.length > 0,
        versionLabel: markdownText(capitalized(versionLabel(ir.info.version))),
        placeholderModule: options.module === undefined,
        localVersion: version ?? "v0.0.0",
        // The first operation that is not a pipeline's submission, called with what its method takes.
        example: plans[0] === undefined ? false : { method: plans[0].method, params: plans[0].params ?? false, binary: plans[0].binary },
        ...readmeCredentials(ir, names.package),
      },
    },
  };
}
