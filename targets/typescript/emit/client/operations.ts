import type { IR, Operation, Parameter, Pipeline, Schema } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import { sentAgainAfterFailure } from "../../../../generator/emit/operation-files.js";
import type { TsKit } from "../ts-kit.js";
import { exportedConstant, tsFile } from "../ts-file.js";
import type { TypeScope } from "../ts-type.js";
import { tsDocCode, tsDocText } from "../escape.js";
import { factory as f, jsonExpression, MAX_LINE, propertyName, typeAlias, typeRef, wrapDoc } from "../ts-nodes.js";
import { id, printFunction, printStatement } from "../ts-functions.js";
import { type TsNames, tsNames } from "../names.js";
import { JOB_HELPER_NAMES, jobHelpers } from "./job-helpers.js";
import { paginatorDeclarations } from "./paginate-nodes.js";
import { scopes, subscriptionRules, typeImports } from "./scope.js";
import { billingSchema, isBinaryResponse, jobsModel, operationSpec, requestBodyContent } from "./spec.js";
import { exampleBody, fixtureCases } from "../../../../generator/emit/fixtures/index.js";
import type { FixtureValue } from "../../../../generator/emit/fixtures/sample.js";
import {
  type BillingTypes,
  billingTypes,
  bodyTypeNode,
  hasHeaderParameters,
  jobFunctionSpecs,
  operationFunctionSpec,
  paramKeys,
  paramsTypeNode,
  responseTypeNode,
  typedWaitJobSpecs,
} from "./operation-nodes.js";

/**
 * operations.ts: one function per operation, each taking the runtime as its first argument so that an
 * application bundles only the operations it imports. Job submission gets a signature per pipeline. Every
 * declaration is a syntax tree (operation-nodes.ts) printed by TypeScript's printer and laid out by ts-functions.ts.
 * The functions' OperationSpec constants are in specs.ts, and operation-specs.ts holds them all by operation id
 * (`operationSpecs`): a module the index does not reach, so that neither the SDK's surface nor its bundles change
 * with it.
 */
/** How many operations are printed between two chances for their garbage to go (kit.collect). */
const COLLECT_EVERY = 512;

export async function emitOperations(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const { request, response, uses } = scopes(ir);
  // What the printed functions use of the runtime, reported as they are built: imports come from this.
  const used: Used = { runtime: new Set(), functions: new Set(), specs: new Set(), subscriptionCheck: false };
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
        for (const [i, op] of ir.operations.entries()) {
          if (op.variants && jobFunctions(op)) file.addPrinted(jobFunctionsText(ir, op, op.variants.pipelines, names, used, billing));
          else file.addPrinted(operationText(ir, op, request, response, names, used, billing));
          // The syntax trees printed so far are garbage (on MS Graph's description, thousands of operations).
          if (i % COLLECT_EVERY === COLLECT_EVERY - 1) kit.collect();
        }
        if (hasJobs) {
          // The job functions and binary operations call the helpers, which take the runtime functions' names.
          // With pipelines, waitJob types its payload by the pipeline it is given.
          const typedWait = ir.operations.some(jobFunctions);
          const helpers = jobHelpers(new Set(typedWait ? ["waitJob"] : []));
          for (const name of JOB_HELPER_NAMES) used.functions.delete(name);
          for (const name of helpers.imports) used.functions.add(name);
          for (const statement of helpers.statements) file.addPrinted(printStatement(statement));
          if (typedWait) {
            for (const t of ["Runtime", "WaitOptions", "JobResult"]) used.runtime.add(t);
            file.addPrinted(typedWaitJobSpecs(billing).map(printFunction).join("\n"));
          }
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
          ...(hasJobs ? [{ moduleSpecifier: "./model.js", namedImports: ["jobModel"] }] : []),
          ...(used.specs.size > 0 ? [{ moduleSpecifier: "./specs.js", namedImports: [...used.specs] }] : []),
          ...(used.subscriptionCheck
            ? [
                { moduleSpecifier: kit.runtimeModule, namedImports: ["checkSubscription"] },
                { moduleSpecifier: "./model.js", namedImports: ["subscriptionRules"] },
              ]
            : []),
          ...(jobTypes.length > 0
            ? [
                {
                  isTypeOnly: true,
                  moduleSpecifier: "./requests.js",
                  namedImports: [...jobTypes, "ExactBody", "JobPayloadOf", "JobRequests"].sort(),
                },
              ]
            : []),
          ...typeImports(
            new Set([...uses, ...(billing.alias === undefined ? [] : [billing.alias])].filter((u) => u !== "FileInput")),
            kit.runtimeModule,
          ),
        ];
      },
    ),
    specsFile(ir, kit, names),
    operationSpecsFile(ir, kit, names),
  ];
}

/** specs.ts: every operation's OperationSpec constant, as its function in operations.ts sends it. */
function specsFile(ir: IR, kit: TsKit, names: TsNames): EmittedFile {
  return tsFile(
    ir,
    kit,
    "specs.ts",
    (file) => {
      for (const op of ir.operations)
        file.addStatement(exportedConstant(names.spec(op), jsonExpression(operationSpec(op)), [], typeRef("OperationSpec")));
    },
    () => (ir.operations.length > 0 ? [{ isTypeOnly: true, moduleSpecifier: kit.runtimeModule, namedImports: ["OperationSpec"] }] : []),
  );
}

/**
 * operation-specs.ts: `operationSpecs`, every operation's OperationSpec by its operation id, for code that sends
 * operations through the runtime by their spec (a server over this client, a proxy); its own entry of the package.
 */
function operationSpecsFile(ir: IR, kit: TsKit, names: TsNames): EmittedFile {
  const entries = ir.operations.map((op) =>
    f.createPropertyAssignment(
      op.id === "__proto__" ? f.createComputedPropertyName(f.createStringLiteral(op.id)) : propertyName(op.id),
      id(names.spec(op)),
    ),
  );
  return tsFile(
    ir,
    kit,
    "operation-specs.ts",
    (file) =>
      file.addStatement(
        exportedConstant(
          "operationSpecs",
          f.createAsExpression(f.createObjectLiteralExpression(entries, true), f.createTypeReferenceNode("const")),
          [
            "Every operation's OperationSpec by its operation id, as its function sends it: for code that sends operations",
            "through the runtime by their spec (`callOperation`, `downloadFile`), such as a server over this client.",
          ],
        ),
      ),
    () => (ir.operations.length > 0 ? [{ moduleSpecifier: "./specs.js", namedImports: ir.operations.map((op) => names.spec(op)) }] : []),
  );
}

interface Used {
  readonly runtime: Set<string>;
  /** The OperationSpec constants the functions send with (specs.ts). */
  readonly specs: Set<string>;
  /** The runtime functions the operations call. */
  readonly functions: Set<string>;
  subscriptionCheck: boolean;
}

/** The width of a top-level doc comment's text: the line limit less ` * `. */
const DOC_WIDTH = MAX_LINE - 3;

/**
 * The `@throws` lines: the operation's error-code union, whose codes each have a class in errors.ts under the class of
 * their status; and for a write that is not sent twice, the error of a 5xx answer, which is also the ServiceError.
 */
function errorsDoc(op: Operation, names: TsNames): string[] {
  const union = names.errorUnion(op);
  const lines =
    union === undefined ? [] : [`@throws {@link ServiceError} of a code in {@link ${union}}, as the class errors.ts names for it`];
  if (sentAgainAfterFailure(op)) return lines;
  const kind = op.job?.role === "submit" ? "JobMayExistError" : "MayHaveBeenProcessedError";
  return [
    ...lines,
    `@throws {@link ${kind}} for a 5xx (not 503, retried) or a failure after sending: not sent again.`,
    "For a 5xx it is also a {@link ServiceError} (an InternalServerError) with its status and code.",
  ];
}

function docs(op: Operation, names: TsNames, extra: readonly string[] = []): string[] {
  const text = [
    op.summary,
    op.description ? `\n${op.description.trimEnd()}` : undefined,
    `\n\`${op.method.toUpperCase()} ${op.path}\``,
    ...extra,
  ]
    .filter((x): x is string => x !== undefined)
    .join("\n");
  // An operation without a summary starts with its description or its path, not with an empty line.
  return [
    ...wrapDoc(tsDocText(text.replace(/^\n+/, "")).split("\n"), DOC_WIDTH),
    ...errorsDoc(op, names),
    ...(op.deprecated ? ["@deprecated The description marks this operation deprecated."] : []),
  ];
}

/** An operation's types, its OperationSpec constant and its function, printed. */
function operationText(
  ir: IR,
  op: Operation,
  request: TypeScope,
  response: TypeScope,
  names: TsNames,
  used: Used,
  billing: BillingTypes,
): string {
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const keys = paramKeys(params);
  const body = requestBodyContent(op);
  const binary = isBinaryResponse(op);
  const declarations: string[] = [];
  if (!binary)
    declarations.push(typeAlias(names.response(op), responseTypeNode(op, response), [`Success body of \`${tsDocCode(op.id)}\`.`]));
  if (params.length > 0)
    declarations.push(typeAlias(names.params(op), paramsTypeNode(params, keys, request), [`Parameters of \`${tsDocCode(op.id)}\`.`]));
  if (body)
    declarations.push(typeAlias(names.body(op), bodyTypeNode(op, body.schema, request), [`Request body of \`${tsDocCode(op.id)}\`.`]));
  const rules = body && subscriptionRules(ir, op);
  if (rules) used.subscriptionCheck = true;
  // The options type the function's signature names: only what is used is imported (noUnusedLocals).
  const optionsType = op.servers ? "OperationServerOptions" : "RequestOptions";
  for (const t of ["Runtime", optionsType, binary ? "Download" : "ApiResult"]) used.runtime.add(t);
  used.specs.add(names.spec(op));
  const spec = operationFunctionSpec(op, {
    names,
    billing,
    keys,
    check: rules ? { create: rules.create } : undefined,
    doc: [...docs(op, names), ...exampleDoc(ir, op, names, keys)],
  });
  used.functions.add(spec.send);
  if (op.servers) used.functions.add("atOperationServer");
  if (hasHeaderParameters(op)) used.functions.add("parameterHeaders");
  const text = `${declarations.join("\n")}\n\n${printFunction(spec.function)}\n`;
  const paged = paginatorDeclarations(op, { names, billing, keys });
  if (paged === undefined) return text;
  for (const name of paged.functions) used.functions.add(name);
  for (const t of paged.types) used.runtime.add(t);
  if (billing.alias === undefined) used.runtime.add("BillingData");
  return `${text}\n${paged.item}\n\n${printFunction(paged.function)}\n`;
}

/** The job functions of a submission operation: a signature per pipeline, then the implementation, printed. */
function jobFunctionsText(
  ir: IR,
  op: Operation,
  pipelines: readonly Pipeline[],
  names: TsNames,
  used: Used,
  billing: BillingTypes,
): string {
  for (const t of ["Runtime", "JobOptions", "JobResult", "JobHandle"]) used.runtime.add(t);
  // The operation's description once, on the first pipeline's signature; the others say what differs and refer to it.
  const pipelineDoc = (p: Pipeline, extraDoc: string, name: string, index: number): string[] => {
    // Escaped as a whole, as docs() escapes its text.
    const line = `Pipeline \`${p.slug}\`${p.summary ? `: ${p.summary}` : "."}\n${extraDoc}`;
    if (index === 0) return [...docs(op, names, [`\n${line}`]), ...(name === names.operation(op) ? jobExampleDoc(ir, op, name, p) : [])];
    return [
      ...wrapDoc(tsDocText(line).split("\n"), DOC_WIDTH),
      "",
      `The operation's full description is on the first signature of {@link ${name}}.`,
      ...errorsDoc(op, names),
    ];
  };
  const stated = op.job?.role === "submit" ? op.job.noWait : undefined;
  const noWait = stated ? `\`${tsDocCode(`${stated.field}=${String(stated.value)}`)}\`` : "the description's no-wait field";
  const functions = jobFunctionSpecs(op, pipelines, { names, billing, noWait, pipelineDoc });
  const texts: string[] = [];
  for (const f of functions) {
    used.functions.add(f.call);
    texts.push([...f.overloads, f.implementation].map(printFunction).join("\n"));
  }
  return `${texts.join("\n\n")}\n`;
}

/** A fixture value as TypeScript source: a file as a Blob of its text and type, anything else as its JSON. */
function exampleValue(value: FixtureValue): string {
  if (Array.isArray(value)) return `[${value.map(exampleValue).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    if ("$file" in value && typeof value.$file === "object" && value.$file !== null && !Array.isArray(value.$file)) {
      const file = value.$file as { text?: unknown; contentType?: unknown };
      return `new Blob([${JSON.stringify(String(file.text ?? ""))}], { type: ${JSON.stringify(String(file.contentType ?? ""))} })`;
    }
    const entries = Object.entries(value).map(
      ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${exampleValue(v as FixtureValue)}`,
    );
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** Width of an example's line inside its doc comment (` * ` before it). */
const EXAMPLE_WIDTH = 100;

/** A fixture value at `indent` columns: on one line when it fits, else an object's or array's members a line each. */
function exampleLayout(value: FixtureValue, indent: number): string {
  const flat = exampleValue(value);
  if (indent + flat.length <= EXAMPLE_WIDTH || value === null || typeof value !== "object" || "$file" in value) return flat;
  const pad = " ".repeat(indent + 2);
  const members = Array.isArray(value)
    ? value.map((v) => exampleLayout(v, indent + 2))
    : Object.entries(value).map(
        ([k, v]) =>
          `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${exampleLayout(v as FixtureValue, indent + 2 + k.length + 2)}`,
      );
  if (members.length === 0) return flat;
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${members.map((m) => `${pad}${m},`).join("\n")}\n${" ".repeat(indent)}${close}`;
}

/** `head(arg, ...);` on one line when it fits, else an argument a line, laid out by exampleLayout. */
function exampleCall(head: string, args: readonly (FixtureValue | { readonly code: string })[]): string[] {
  const text = (a: FixtureValue | { readonly code: string }, indent: number) =>
    a !== null && typeof a === "object" && "code" in a && typeof a.code === "string" ? a.code : exampleLayout(a as FixtureValue, indent);
  const flat = `${head}(${args.map((a) => text(a, 0)).join(", ")});`;
  if (flat.length <= EXAMPLE_WIDTH) return [flat];
  return [`${head}(`, ...args.flatMap((a) => `  ${text(a, 2)},`.split("\n")), ");"];
}

/** The body's required top-level fields of a fixture body, when its schema (or the object it names) says which. */
function requiredFields(ir: IR, schema: Schema, body: FixtureValue): FixtureValue {
  const target = schema.kind === "ref" ? ir.schemas.find((s) => s.name === schema.name)?.schema : schema;
  if (target?.kind !== "object" || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const required = new Set(target.properties.filter((p) => p.required).map((p) => p.name));
  return Object.fromEntries(Object.entries(body).filter(([k]) => required.has(k))) as FixtureValue;
}

/**
 * `@example`: one call of the operation with the fixture's values of its required parameters and of its body's
 * required fields (fixtures/ holds the same samples), in a code block that the README's examples' test type-checks.
 */
function exampleDoc(ir: IR, op: Operation, names: TsNames, keys: ReadonlyMap<Parameter, string>): string[] {
  const fixture = fixtureCases(ir, op)[0];
  if (fixture === undefined) return [];
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const given: [string, FixtureValue][] = [];
  for (const p of params) {
    if (!p.required && p.in !== "path") continue;
    const value = p.in === "path" ? fixture.request.path[p.name] : p.in === "query" ? fixture.request.query[p.name] : undefined;
    // A required header or cookie has no fixture value: no example rather than a made-up one.
    if (value === undefined) return [];
    given.push([keys.get(p) ?? p.name, value]);
  }
  const content = requestBodyContent(op);
  const args: (FixtureValue | { readonly code: string })[] = [{ code: "client" }];
  const bodyRequired = content !== undefined && op.requestBody?.required === true;
  if (given.length > 0 || bodyRequired) args.push(Object.fromEntries(given) as FixtureValue);
  if (bodyRequired && fixture.request.body !== undefined) args.push(requiredFields(ir, content.schema, fixture.request.body));
  else if (bodyRequired) return [];
  if (given.length === 0 && params.length === 0 && args.length > 1) args.splice(1, 1);
  const shown = isBinaryResponse(op) ? ["file", "file.fileName"] : ["result", "result.data"];
  return codeExample([...exampleCall(`const ${shown[0]} = await ${names.operation(op)}`, args), `console.log(${shown[1]});`]);
}

/** `@example` with the lines in a ts code block, a comment end in them escaped. */
function codeExample(lines: readonly string[]): string[] {
  return ["@example", "```ts", ...lines.map((l) => l.replaceAll("*/", "*\\/")), "```"];
}

/**
 * The `@example` of a job submission's first signature: the first pipeline's first variant, with the fixture's values
 * of the variant's required fields, its discriminator and the member of each "exactly one of" group the fixture has.
 */
function jobExampleDoc(ir: IR, op: Operation, name: string, pipeline: Pipeline): string[] {
  const fixture = fixtureCases(ir, op).find((c) => c.pipeline === pipeline.slug);
  const fields = fixture === undefined ? undefined : exampleBody(ir, op, fixture);
  if (fields === undefined || fields === null || typeof fields !== "object" || Array.isArray(fields)) return [];
  return codeExample([...exampleCall(`const job = await ${name}`, [{ code: "client" }, pipeline.slug, fields]), "console.log(job.data);"]);
}
