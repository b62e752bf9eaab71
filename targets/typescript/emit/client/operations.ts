import type { IR, Operation, Parameter, Pipeline, Schema } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { type Statements, tsFile, VariableDeclarationKind } from "../ts-file.js";
import { tsDocCode, tsDocText, tsObjectKey, tsRead, tsString } from "../escape.js";
import { docOf, objectLiteral, printType, type TypeScope } from "../ts-type.js";
import { MAX_LINE, wrapDoc } from "../ts-nodes.js";
import { type TsNames, tsNames } from "../names.js";
import { scopes, subscriptionRules, typeImports } from "./scope.js";
import { billingSchema, isBinaryResponse, jobsModel, rawBodyMediaType, specExpression } from "./spec.js";

/**
 * operations.ts: one function per operation, each taking the runtime as its first argument so that an
 * application bundles only the operations it imports. Job submission gets a signature per pipeline.
 */
export async function emitOperations(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const { request, response, uses } = scopes(ir);
  // What the printed functions use of the runtime, reported as they are built: imports come from this.
  const used: Used = { runtime: new Set(), functions: new Set(), subscriptionCheck: false };
  const names = tsNames(ir);
  const billingName = billingSchema(ir);
  const billing = billingTypes(billingName === undefined ? undefined : names.schema(billingName));
  // The job functions need the job helpers, which only a description that states job operations gets; without them
  // the submission is an ordinary operation.
  const hasJobs = jobsModel(ir) !== undefined;
  const jobFunctions = (op: Operation): boolean => hasJobs && op.variants !== undefined && op.job?.role === "submit";
  return [
    tsFile(
      ir,
      kit,
      "operations.ts",
      (file) => {
        for (const op of ir.operations) {
          if (op.variants && jobFunctions(op)) emitJobFunctions(file, op, op.variants.pipelines, names, used, billing);
          else emitOperation(file, ir, op, request, response, names, used, billing);
        }
      },
      () => {
        const jobTypes = ir.operations
          .filter(jobFunctions)
          .flatMap((o) => o.variants?.pipelines.flatMap((p) => [names.pipelineRequest(p), names.payload(p)]) ?? []);
        const runtimeTypes = [...used.runtime, ...(uses.has("FileInput") ? ["FileInput"] : [])].sort();
        return [
          ...(runtimeTypes.length > 0 ? [{ isTypeOnly: true, moduleSpecifier: kit.runtimeModule, namedImports: runtimeTypes }] : []),
          // The runtime's functions each operation calls, imported one by one so that a bundle carries only those.
          ...(used.functions.size > 0 ? [{ moduleSpecifier: kit.runtimeModule, namedImports: [...used.functions].sort() }] : []),
          ...(used.subscriptionCheck
            ? [
                { moduleSpecifier: kit.runtimeModule, namedImports: ["checkSubscription"] },
                { moduleSpecifier: "./model.js", namedImports: ["subscriptionRules"] },
              ]
            : []),
          ...(jobTypes.length > 0
            ? [{ isTypeOnly: true, moduleSpecifier: "./requests.js", namedImports: [...jobTypes, "OptionsIfExact"].sort() }]
            : []),
          ...typeImports(
            new Set([...uses, ...(billing.alias === undefined ? [] : [billing.alias])].filter((u) => u !== "FileInput")),
            kit.runtimeModule,
          ),
        ];
      },
    ),
  ];
}

interface Used {
  readonly runtime: Set<string>;
  /** The runtime functions the operations call. */
  readonly functions: Set<string>;
  subscriptionCheck: boolean;
}

/** The runtime's generic types narrowed to the description's billing schema, when it names one. */
interface BillingTypes {
  readonly alias: string | undefined;
  /** `Runtime<Billing>`, or `Runtime`. */
  readonly client: string;
  /** The client of the job functions: the same Runtime (the job helpers are functions of the runtime). */
  readonly jobClient: string;
  /** `, Billing` after a type argument list's first member, or nothing. */
  readonly extra: string;
  /** `<Billing>` for a type whose only argument it is, or nothing. */
  readonly only: string;
}

function billingTypes(alias: string | undefined): BillingTypes {
  return alias === undefined
    ? { alias, client: "Runtime", jobClient: "Runtime", extra: "", only: "" }
    : { alias, client: `Runtime<${alias}>`, jobClient: `Runtime<${alias}>`, extra: `, ${alias}`, only: `<${alias}>` };
}

/** The width of a top-level doc comment's text: the line limit less ` * `. */
const DOC_WIDTH = MAX_LINE - 3;

/** One `@throws` line naming the operation's error-code union, whose codes each have a class in errors.ts. */
function errorsDoc(op: Operation, names: TsNames): string[] {
  const union = names.errorUnion(op);
  return union === undefined ? [] : [`@throws {@link ServiceError} of a code in {@link ${union}}, as the class errors.ts names for it`];
}

function docs(op: Operation, names: TsNames, extra: readonly string[] = []): string {
  const text = [
    op.summary,
    op.description ? `\n${op.description.trimEnd()}` : undefined,
    `\n\`${op.method.toUpperCase()} ${op.path}\``,
    ...extra,
  ]
    .filter((x): x is string => x !== undefined)
    .join("\n");
  return [...wrapDoc(tsDocText(text).split("\n"), DOC_WIDTH), ...errorsDoc(op, names)].join("\n");
}

function responseType(op: Operation, scope: TypeScope): string {
  const types = op.responses
    .filter((r) => r.status.startsWith("2"))
    .flatMap((r) => r.contents.filter((c) => c.mediaType.includes("json")).map((c) => printType(c.schema, scope)));
  return types.length === 0 ? "unknown" : [...new Set(types)].join(" | ");
}

/**
 * The property of each parameter in the operation's params object. A path and a query parameter may share a
 * name (Kubernetes' `path`); the later one gets a trailing `_`, as its Python keyword argument does.
 */
function paramKeys(params: readonly Parameter[]): Map<Parameter, string> {
  const taken = new Set<string>();
  return new Map(
    params.map((p) => {
      let key = p.name;
      while (taken.has(key)) key = `${key}_`;
      taken.add(key);
      return [p, key];
    }),
  );
}

/**
 * The type of a path parameter: what the runtime puts into a path (`string | number`). A nullable one loses its
 * `null` (a path has no null segment); one of another type (boolean, array, object) takes `string | number`.
 */
function pathParamType(schema: Schema, scope: TypeScope): string {
  const stripped = schema.kind === "union" ? schema.members.filter((m) => m.kind !== "null") : [schema];
  const resolve = (s: Schema): Schema | undefined => (s.kind === "ref" ? scope.named.get(s.name)?.schema : s);
  const fits = (s: Schema | undefined): boolean =>
    s !== undefined &&
    (s.kind === "string" ||
      s.kind === "number" ||
      s.kind === "integer" ||
      (s.kind === "enum" && s.values.length > 0 && s.values.every((v) => typeof v === "string" || typeof v === "number")));
  if (stripped.length === 1 && fits(resolve(stripped[0]!))) return printType(stripped[0]!, scope);
  return "string | number";
}

function paramsType(params: readonly Parameter[], keys: ReadonlyMap<Parameter, string>, scope: TypeScope): string {
  return objectLiteral(
    params.map((p) => ({
      name: keys.get(p)!,
      optional: !p.required,
      type: p.in === "path" ? pathParamType(p.schema, scope) : printType(p.schema, scope),
      doc: docOf({ ...p.schema, ...(p.description !== undefined && { description: p.description }) } as Schema, scope),
    })),
    false,
  );
}

/**
 * A body sent as it is takes text where its schema is a string, else a file (bytes, a Blob, a stream, a path):
 * an `application/octet-stream` body described as an array of byte strings is still bytes on the wire.
 */
function bodyType(op: Operation, schema: Schema, scope: TypeScope): string {
  if (rawBodyMediaType(op) === undefined || schema.kind === "string" || schema.kind === "file") return printType(schema, scope);
  scope.uses?.add("FileInput");
  return "FileInput";
}

function emitOperation(
  file: Statements,
  ir: IR,
  op: Operation,
  request: TypeScope,
  response: TypeScope,
  names: TsNames,
  used: Used,
  billing: BillingTypes,
): void {
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const keys = paramKeys(params);
  const body = op.requestBody?.contents[0];
  const binary = isBinaryResponse(op);
  const resultType = binary ? `Download${billing.only}` : names.response(op);
  if (!binary)
    file.addTypeAlias({
      isExported: true,
      name: names.response(op),
      docs: [`Success body of \`${tsDocCode(op.id)}\`.`],
      type: responseType(op, response),
    });
  if (params.length > 0)
    file.addTypeAlias({
      isExported: true,
      name: names.params(op),
      docs: [`Parameters of \`${tsDocCode(op.id)}\`.`],
      type: paramsType(params, keys, request),
    });
  if (body)
    file.addTypeAlias({
      isExported: true,
      name: names.body(op),
      docs: [`Request body of \`${tsDocCode(op.id)}\`.`],
      type: bodyType(op, body.schema, request),
    });
  const specName = names.spec(op);
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: specName, type: "OperationSpec", initializer: specExpression(op) }],
  });
  // A required body after the params makes them required too: an optional parameter cannot precede a required one.
  const optionalParams = !params.some((p) => p.required) && !(body && op.requestBody?.required);
  const pick = (list: readonly Parameter[]) =>
    list.length === 0
      ? undefined
      : `{ ${list.map((p) => `${tsObjectKey(p.name)}: ${tsRead("params", keys.get(p)!, optionalParams)}`).join(", ")} }`;
  const input = [
    pick(op.parameters.path) && `path: ${pick(op.parameters.path)}`,
    pick(op.parameters.query) && `query: ${pick(op.parameters.query)}`,
    pick(op.parameters.header) && `header: ${pick(op.parameters.header)}`,
    pick(op.parameters.cookie) && `cookie: ${pick(op.parameters.cookie)}`,
    body && (op.requestBody?.required ? "body" : "...(body === undefined ? {} : { body })"),
  ].filter(Boolean);
  const rules = body && subscriptionRules(ir, op);
  // The check returns the body to send (its URL normalised); the body as given is never sent.
  const check = rules ? `const checked = checkSubscription(body, subscriptionRules, { create: ${rules.create} });` : undefined;
  if (check) used.subscriptionCheck = true;
  for (const t of ["Runtime", "RequestOptions", "OperationSpec", binary ? "Download" : "ApiResult"]) used.runtime.add(t);
  // An operation without a body needs no body encoders: it calls the function that has none.
  const send = binary ? "downloadFile" : body ? "callOperationWithBody" : "callOperation";
  used.functions.add(send);
  if (check) input[input.length - 1] = "body: checked";
  file.addFunction({
    isExported: true,
    name: names.operation(op),
    docs: [docs(op, names)],
    parameters: [
      { name: "client", type: billing.client },
      ...(params.length > 0 ? [{ name: "params", type: names.params(op), hasQuestionToken: optionalParams }] : []),
      ...(body ? [{ name: "body", type: names.body(op), hasQuestionToken: !op.requestBody?.required }] : []),
      { name: "options", type: "RequestOptions", hasQuestionToken: true },
    ],
    returnType: binary ? `Promise<${resultType}>` : `Promise<ApiResult<${resultType}${billing.extra}>>`,
    statements: [
      ...(check ? [check] : []),
      binary
        ? `return ${send}(client, ${specName}, { ${input.join(", ")} }, options);`
        : `return ${send}<${resultType}${billing.extra}>(client, ${specName}, { ${input.join(", ")} }, options);`,
    ],
  });
}

function emitJobFunctions(
  file: Statements,
  op: Operation,
  pipelines: readonly Pipeline[],
  names: TsNames,
  used: Used,
  billing: BillingTypes,
): void {
  for (const t of ["Runtime", "JobOptions", "JobResult", "JobHandle"]) used.runtime.add(t);
  // The operation's description once, on the first pipeline's signature; the others say what differs and refer to it.
  const pipelineDoc = (p: Pipeline, extraDoc: string, name: string, index: number) => {
    // Escaped as a whole, as docs() escapes its text.
    const line = `Pipeline \`${p.slug}\`${p.summary ? `: ${p.summary}` : "."}\n${extraDoc}`;
    if (index === 0) return docs(op, names, [`\n${line}`]);
    return [
      ...wrapDoc(tsDocText(line).split("\n"), DOC_WIDTH),
      "",
      `The operation's full description is on the first signature of {@link ${name}}.`,
      ...errorsDoc(op, names),
    ].join("\n");
  };
  const overloads = (returns: (p: Pipeline) => string, extraDoc: string, name: string) =>
    pipelines.map((p, index) => ({
      docs: [pipelineDoc(p, extraDoc, name, index)],
      typeParameters: [{ name: "B", constraint: names.pipelineRequest(p) }],
      parameters: [
        { name: "client", type: billing.jobClient },
        { name: "pipeline", type: tsString(p.slug) },
        { name: "body", type: "B" },
        { name: "options", isRestParameter: true, type: `OptionsIfExact<B, ${names.pipelineRequest(p)}, JobOptions>` },
      ],
      returnType: returns(p),
    }));
  const start = names.start(op);
  const stated = op.job?.role === "submit" ? op.job.noWait : undefined;
  const noWait = stated ? `\`${tsDocCode(`${stated.field}=${String(stated.value)}`)}\`` : "the description's no-wait field";
  const functions = [
    {
      name: names.operation(op),
      returns: (p: Pipeline) => `Promise<JobResult<${names.payload(p)}<B>${billing.extra}>>`,
      returnType: `Promise<JobResult<unknown${billing.extra}>>`,
      doc: "Submits the job and waits: on hold, then by polling after a 202, until it completes, fails or the deadline passes.",
      call: "submitJob",
    },
    {
      name: start,
      returns: () => `Promise<JobHandle${billing.only}>`,
      returnType: `Promise<JobHandle${billing.only}>`,
      doc: `Submits with ${noWait} and returns a handle at once; \`waitJob(client, handle.jobId)\` resumes from any process.`,
      call: "startJob",
    },
  ];
  for (const f of functions) {
    used.functions.add(f.call);
    file.addFunction({
      isExported: true,
      name: f.name,
      overloads: overloads(f.returns, f.doc, f.name),
      parameters: [
        { name: "client", type: billing.jobClient },
        { name: "pipeline", type: "string" },
        { name: "body", type: "Record<string, unknown>" },
        { name: "options", type: "JobOptions", hasQuestionToken: true },
        { name: "_unknownField", type: "string", hasQuestionToken: true },
      ],
      returnType: f.returnType,
      statements: [`return ${f.call}(client, pipeline, body, options);`],
    });
  }
}
