import type { IR, Operation } from "../../../generator/ir/types.js";
import { errorClassNames } from "./client/errors.js";
import { envNames } from "../../../generator/emit/env-names.js";
import { requestBodyContent } from "../../../generator/emit/operation-files.js";
import { readmeAuth, versionLabel } from "../../../generator/emit/readme-facts.js";
import { BIN } from "../../../generator/names.js";
import { tsLineComment } from "./escape.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";
import { type TsNames, tsNames } from "./names.js";
import { billingTypes, paramKeys } from "./client/operation-nodes.js";
import { paginatorDeclarations } from "./client/paginate-nodes.js";
import { type EmittedFile, htmlCommentText } from "../../../generator/emit/kit.js";
import type { TsKit } from "./ts-kit.js";

const TEMPLATES = new URL("../templates/", import.meta.url);

/** The client's files, which every run writes, and what each holds, for the generated README. */
function clientFiles(ir: IR): { path: string; what: string }[] {
  const pipelines = ir.operations.some((o) => o.variants !== undefined);
  // A name that needs no quoting in Markdown or TypeScript, as an example.
  const schema = ir.schemas.map((s) => s.name).find((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  const model = [
    `${versionLabel(ir.info.version).split(" ")[0]} and description hash`,
    ...(ir.errors.length > 0 ? ["error table"] : []),
    ...(pipelines ? ["pipelines"] : []),
    ...(ir.operations.some((o) => o.variants?.pricing !== undefined) ? ["prices"] : []),
    ...(ir.webhooks.length > 0 ? ["event names"] : []),
    "security schemes and servers",
  ];
  return [
    { path: "index.ts", what: "the main entry: `createClient`, the operations, errors, request types and the runtime" },
    { path: "operations.ts", what: "one function per operation" },
    { path: "specs.ts", what: "the OperationSpec each operation's function sends it by" },
    {
      path: "operation-specs.ts",
      what: "`operationSpecs`: every OperationSpec by operation id, for sending operations through the runtime by spec",
    },
    {
      path: "requests.ts",
      what: pipelines ? "exact request types per pipeline and variant, and their payload types" : "the request types of the operations",
    },
    {
      path: "schemas.ts",
      what:
        schema === undefined
          ? "every named schema as a plain type"
          : `every named schema as a plain type (\`${schema}\`), for \`components["schemas"]["${schema}"]\``,
    },
    {
      path: "errors.ts",
      what: ir.errors.length > 0 ? "an error class per error code" : "the error classes (the description lists no error codes)",
    },
    { path: "model.ts", what: `what the runtime is told: ${model.join(", ")}` },
    { path: "webhooks.ts", what: "the webhooks entry: the event union, a typed `verify`, receivers and deduplication" },
    { path: "types.ts", what: "paths, components and webhooks, by openapi-typescript" },
  ];
}

/** The optional outputs of the run, when it writes them beside the client. */
const OUTPUT_FILES: Readonly<Record<string, { path: string; what: string }>> = {
  fixtures: { path: "fixtures/", what: "a valid request and a response per status for every operation" },
  ir: { path: "ir.json", what: "the intermediate model the files were generated from" },
};

const cell = (text: string | undefined): string => (text ?? "").replaceAll("|", "\\|").replaceAll("\n", " ").trim();

/**
 * The README's example call: the first operation that is a plain function (not a pipeline's submission), with the
 * arguments it requires after the client as typed parameters of the example function, so that it is valid code.
 */
function exampleCall(ir: IR, names: TsNames): { function: string; types: string[]; parameters: string; arguments: string } | undefined {
  const op: Operation | undefined = ir.operations.find((o) => o.variants === undefined);
  if (op === undefined) return undefined;
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const body = requestBodyContent(op) !== undefined && op.requestBody?.required === true;
  // As the function's signature has it: a required body makes the params before it required too.
  const needsParams = params.length > 0 && (params.some((p) => p.required) || body);
  const args = [...(needsParams ? [["params", names.params(op)]] : []), ...(body ? [["body", names.body(op)]] : [])];
  return {
    function: names.operation(op),
    types: args.map(([, type]) => type ?? ""),
    parameters: args.map(([name, type]) => `${name}: ${type}`).join(", "),
    arguments: args.map(([name]) => `, ${name}`).join(""),
  };
}

/** Comment lines of the example on the credentials the description's security schemes ask for. */
function authLines(ir: IR): { lines: string[]; options: string } {
  const auth = readmeAuth(ir);
  const token = envNames(ir).token;
  if (auth.none) return { lines: ["The description declares no security scheme: the client sends no credentials."], options: "" };
  const lines: string[] = [];
  if (auth.bearer) lines.push(`A bearer token: \`token\`, by default from $${token} (Node).`);
  if (auth.apiKeys.length > 0)
    lines.push(tsLineComment(`An API key (${auth.apiKeys.join(", ")}): \`apiKey\`, else \`token\` or $${token} (Node) serves as the key.`));
  if (auth.basic) lines.push("HTTP basic authentication: `username` and `password`.");
  lines.push("Operations whose security needs none send no credentials.");
  const options = auth.bearer || auth.apiKeys.length > 0 ? "" : '{ username: "<user name>", password: "<password>" }';
  return { lines, options };
}

/** README.md of the generated folder, from the target's templates/readme.hbs. */
export async function emitReadme(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const classes = errorClassNames(ir);
  const names = tsNames(ir);
  const pkg = kit.typescriptPackage;
  const { lines, options } = authLines(ir);
  const example = exampleCall(ir, names);
  const content = kit.render(TEMPLATES, "readme", {
    bin: BIN,
    package: pkg ?? "",
    runtimePackage: RUNTIME_PACKAGE.name,
    runtimeRange: RUNTIME_PACKAGE.range,
    runtimeTarball: `${RUNTIME_PACKAGE.name.replace(/^@/, "").replace("/", "-")}-<version>.tgz`,
    runtimeModule: kit.runtimeModule,
    runtimeByPath: kit.runtimeModule.startsWith("."),
    clientModule: pkg ?? "./index.js",
    webhooksModule: pkg === undefined ? "./webhooks.js" : `${pkg}/webhooks`,
    example: example ?? { function: "", types: [], parameters: "", arguments: "" },
    hasExample: example !== undefined,
    authLines: lines,
    clientOptions: options,
    title: ir.info.title,
    versionLabel: versionLabel(ir.info.version),
    envBaseUrl: envNames(ir).baseUrl,
    envLog: envNames(ir).log,
    hash: ir.info.descriptionHash,
    files: [
      ...clientFiles(ir),
      ...(pkg === undefined
        ? []
        : [
            { path: "package.json", what: "the package's manifest: its name, version, entries and the runtime's range" },
            { path: "tsconfig.json", what: "the ES module build into `dist/` (`npm run build`, also run by `npm pack`)" },
            { path: "tsconfig.cjs.json", what: "the CommonJS build into `dist/cjs/`" },
          ]),
      ...(kit.outputs ?? []).flatMap((o) => (OUTPUT_FILES[o] === undefined ? [] : [OUTPUT_FILES[o]])),
      { path: "manifest.json", what: `the ${versionLabel(ir.info.version).split(" ")[0]}, description hash and the sha256 of every file` },
    ],
    operations: ir.operations.map((o) => ({
      identifier: names.operation(o),
      method: o.method.toUpperCase(),
      path: o.path,
      summary: cell(o.summary),
    })),
    pipelines: ir.operations.flatMap((o) => o.variants?.pipelines ?? []),
    // The operations whose auto-paging function operations.ts prints.
    pagers: ir.operations
      .filter((o) => {
        const params = [...o.parameters.path, ...o.parameters.query, ...o.parameters.header, ...o.parameters.cookie];
        return paginatorDeclarations(o, { names, billing: billingTypes(undefined), keys: paramKeys(params) }) !== undefined;
      })
      .map((o) => names.paginate(o)),
    errors: ir.errors.map((e) => ({ ...e, className: classes.get(e.code) })),
    events: ir.webhooks.map((w) => ({ event: w.event, summary: cell(w.summary) })),
    // verify and the receivers exist only where the description states how deliveries are signed.
    signing: ir.webhooks.length > 0 && ir.conventions?.webhooks !== undefined,
    operationServers: ir.operations.some((o) => o.servers !== undefined),
  });
  return [{ path: "README.md", content: `${kit.header(ir, { open: "<!--", close: "-->" }, htmlCommentText)}\n${content}` }];
}
