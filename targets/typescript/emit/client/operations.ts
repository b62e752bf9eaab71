import type { IR, Operation, Pipeline } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsFile } from "../ts-file.js";
import type { TypeScope } from "../ts-type.js";
import { tsDocCode, tsDocText } from "../escape.js";
import { jsonExpression, MAX_LINE, typeAlias, typeRef, wrapDoc } from "../ts-nodes.js";
import { constant, printFunction, printStatement } from "../ts-functions.js";
import { type TsNames, tsNames } from "../names.js";
import { JOB_HELPER_NAMES, jobHelpers } from "./job-helpers.js";
import { scopes, subscriptionRules, typeImports } from "./scope.js";
import { billingSchema, isBinaryResponse, jobsModel, operationSpec, requestBodyContent } from "./spec.js";
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
 */
/** How many operations are printed between two chances for their garbage to go (kit.collect). */
const COLLECT_EVERY = 512;

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
        for (const [i, op] of ir.operations.entries()) {
          if (op.variants && jobFunctions(op)) file.addPrinted(jobFunctionsText(op, op.variants.pipelines, names, used, billing));
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
  ];
}

interface Used {
  readonly runtime: Set<string>;
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
  if (op.idempotent && op.job?.role !== "submit") return lines;
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
  declarations.push(printStatement(constant(names.spec(op), jsonExpression(operationSpec(op)), typeRef("OperationSpec"))));
  const rules = body && subscriptionRules(ir, op);
  if (rules) used.subscriptionCheck = true;
  // The options type the function's signature names: only what is used is imported (noUnusedLocals).
  const optionsType = op.servers ? "OperationServerOptions" : "RequestOptions";
  for (const t of ["Runtime", optionsType, "OperationSpec", binary ? "Download" : "ApiResult"]) used.runtime.add(t);
  const spec = operationFunctionSpec(op, {
    names,
    billing,
    keys,
    check: rules ? { create: rules.create } : undefined,
    doc: docs(op, names),
  });
  used.functions.add(spec.send);
  if (op.servers) used.functions.add("atOperationServer");
  if (hasHeaderParameters(op)) used.functions.add("parameterHeaders");
  return `${declarations.join("\n")}\n\n${printFunction(spec.function)}\n`;
}

/** The job functions of a submission operation: a signature per pipeline, then the implementation, printed. */
function jobFunctionsText(op: Operation, pipelines: readonly Pipeline[], names: TsNames, used: Used, billing: BillingTypes): string {
  for (const t of ["Runtime", "JobOptions", "JobResult", "JobHandle"]) used.runtime.add(t);
  // The operation's description once, on the first pipeline's signature; the others say what differs and refer to it.
  const pipelineDoc = (p: Pipeline, extraDoc: string, name: string, index: number): string[] => {
    // Escaped as a whole, as docs() escapes its text.
    const line = `Pipeline \`${p.slug}\`${p.summary ? `: ${p.summary}` : "."}\n${extraDoc}`;
    if (index === 0) return docs(op, names, [`\n${line}`]);
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
