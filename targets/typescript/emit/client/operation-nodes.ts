// The syntax trees of operations.ts, as small pure transforms from the IR: an operation's response, params and body
// types, the request input its function passes to the runtime, and the functions themselves (a plain operation's,
// and a job submission's signature per pipeline). operations.ts prints them and collects the imports they use.
import type * as TS from "typescript";
import type { Operation, Parameter, Pipeline, Schema } from "../../../../generator/ir/types.js";
import { isInheritedMember } from "../escape.js";
import { ts } from "../typescript.js";
import { docLinesOf, type TypeScope } from "../ts-type.js";
import {
  factory as f,
  literalType,
  printNode,
  recordOf,
  schemaType,
  stringType,
  typeLiteral,
  typeParameter,
  typeRef,
  unionOf,
  unknownType,
} from "../ts-nodes.js";
import { call, type FunctionSpec, id, objectOf, readProperty, returns, constant } from "../ts-functions.js";
import type { TsNames } from "../names.js";
import { isBinaryResponse, operationSpec, rawBodyMediaType, requestBodyContent } from "./spec.js";

/** The runtime's generic types narrowed to the description's billing schema, when it names one. */
export interface BillingTypes {
  readonly alias: string | undefined;
  /** `Runtime<Billing>`, or `Runtime`. */
  readonly client: () => TS.TypeNode;
  /** `[Billing]` after a type argument list's first member, or nothing. */
  readonly extra: () => TS.TypeNode[];
}

export function billingTypes(alias: string | undefined): BillingTypes {
  const extra = () => (alias === undefined ? [] : [typeRef(alias)]);
  return { alias, client: () => typeRef("Runtime", alias === undefined ? undefined : extra()), extra };
}

/** The success body's type: the union of the JSON contents of the 2xx responses, or `unknown`. */
export function responseTypeNode(op: Operation, scope: TypeScope): TS.TypeNode {
  const types = op.responses
    .filter((r) => r.status.startsWith("2"))
    .flatMap((r) => r.contents.filter((c) => c.encoding === "json").map((c) => schemaType(c.schema, scope, 0)));
  const unique = new Map(types.map((t) => [printNode(t), t]));
  return unique.size === 0 ? unknownType() : unionOf([...unique.values()]);
}

/**
 * The property of each parameter in the operation's params object. A path and a query parameter may share a
 * name (Kubernetes' `path`); the later one gets a trailing `_`, as its Python keyword argument does.
 */
export function paramKeys(params: readonly Parameter[]): Map<Parameter, string> {
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
export function pathParamTypeNode(schema: Schema, scope: TypeScope): TS.TypeNode {
  const stripped = schema.kind === "union" ? schema.members.filter((m) => m.kind !== "null") : [schema];
  const resolve = (s: Schema): Schema | undefined => (s.kind === "ref" ? scope.named.get(s.name)?.schema : s);
  const fits = (s: Schema | undefined): boolean =>
    s !== undefined &&
    (s.kind === "string" ||
      s.kind === "number" ||
      s.kind === "integer" ||
      (s.kind === "enum" && s.values.length > 0 && s.values.every((v) => typeof v === "string" || typeof v === "number")));
  if (stripped.length === 1 && fits(resolve(stripped[0]!))) return schemaType(stripped[0]!, scope, 0);
  return unionOf([stringType(), f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword)]);
}

/** The params object's type: a property a parameter, with the parameter's description as its doc. */
export function paramsTypeNode(params: readonly Parameter[], keys: ReadonlyMap<Parameter, string>, scope: TypeScope): TS.TypeNode {
  return typeLiteral(
    params.map((p) => ({
      name: keys.get(p)!,
      optional: !p.required,
      type: p.in === "path" ? pathParamTypeNode(p.schema, scope) : schemaType(p.schema, scope, 1),
      doc: docLinesOf(
        {
          ...p.schema,
          ...(p.description !== undefined && { description: p.description }),
          ...(p.deprecated && { deprecated: true }),
        } as Schema,
        scope,
      ),
    })),
    false,
    0,
  );
}

/**
 * A body sent as it is takes text where its schema is a string, else a file (bytes, a Blob, a stream, a path):
 * an `application/octet-stream` body described as an array of byte strings is still bytes on the wire.
 */
export function bodyTypeNode(op: Operation, schema: Schema, scope: TypeScope): TS.TypeNode {
  if (rawBodyMediaType(op) === undefined || schema.kind === "string" || schema.kind === "file") return schemaType(schema, scope, 0);
  scope.uses?.add("FileInput");
  return typeRef("FileInput");
}

/**
 * The request the function passes to the runtime: `{ path: { id: params.id }, query: {...}, body }`, each
 * parameter read from the params object under its key. Header and cookie parameters become
 * `headers: parameterHeaders({...}, {...})`, called here so that operations without them leave its code out of a
 * bundle. An optional body is left out when it is undefined; a checked body is sent as the check returned it.
 */
export function requestInput(
  op: Operation,
  keys: ReadonlyMap<Parameter, string>,
  optionalParams: boolean,
  checked: boolean,
): TS.ObjectLiteralExpression {
  const pick = (list: readonly Parameter[]): TS.Expression =>
    objectOf(list.map((p) => [p.name, readProperty("params", keys.get(p)!, optionalParams, isInheritedMember(keys.get(p)!))]));
  const groups = (["path", "query"] as const)
    .filter((where) => op.parameters[where].length > 0)
    .map((where): readonly [string, TS.Expression] => [where, pick(op.parameters[where])]);
  if (hasHeaderParameters(op)) {
    const { header, cookie } = op.parameters;
    const args = [header.length > 0 ? pick(header) : id("undefined"), ...(cookie.length > 0 ? [pick(cookie)] : [])];
    groups.push(["headers", call("parameterHeaders", undefined, args)]);
  }
  const entries = checked ? [...groups, ["body", id("checked")] as const] : groups;
  const input = objectOf(entries);
  if (!op.requestBody || checked) return input;
  if (op.requestBody.required)
    return f.createObjectLiteralExpression([...input.properties, f.createShorthandPropertyAssignment("body")], false);
  // `...(body === undefined ? {} : { body })`
  const spread = f.createSpreadAssignment(
    f.createParenthesizedExpression(
      f.createConditionalExpression(
        f.createStrictEquality(id("body"), id("undefined")),
        f.createToken(ts.SyntaxKind.QuestionToken),
        f.createObjectLiteralExpression([], false),
        f.createToken(ts.SyntaxKind.ColonToken),
        f.createObjectLiteralExpression([f.createShorthandPropertyAssignment("body")], false),
      ),
    ),
  );
  return f.createObjectLiteralExpression([...input.properties, spread], false);
}

/** Whether an operation has header or cookie parameters, which its function turns into headers with parameterHeaders. */
export function hasHeaderParameters(op: Operation): boolean {
  return op.parameters.header.length > 0 || op.parameters.cookie.length > 0;
}

/**
 * The runtime call of an operation with a body: a body that can only be JSON (the spec's media type says so) and is
 * no job submission needs only the JSON encoder; any other goes through callOperationWithBody. A job submission
 * without a body has its own call (callSubmission): only it and the calls with a body know a submission's error.
 */
function bodyCall(op: Operation): string {
  return operationSpec(op).requestMediaType === "application/json" && op.job?.role !== "submit"
    ? "callJsonOperation"
    : "callOperationWithBody";
}

export interface OperationContext {
  readonly names: TsNames;
  readonly billing: BillingTypes;
  readonly keys: ReadonlyMap<Parameter, string>;
  /** The subscription check the body goes through first, when the description states its rules. */
  readonly check: { readonly create: boolean } | undefined;
  /** Escaped doc lines. */
  readonly doc: readonly string[];
}

/**
 * A plain operation's function: `(client, params?, body?, options?)` returning the runtime call's promise; `send`
 * is the runtime function it calls (one without body encoders where there is no body).
 */
export function operationFunctionSpec(op: Operation, context: OperationContext): { function: FunctionSpec; send: string } {
  const { names, billing, keys, check } = context;
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const body = requestBodyContent(op);
  const binary = isBinaryResponse(op);
  // A required body after the params makes them required too: an optional parameter cannot precede a required one.
  const optionalParams = !params.some((p) => p.required) && !(body && op.requestBody?.required);
  const send = binary ? "downloadFile" : body ? bodyCall(op) : op.job?.role === "submit" ? "callSubmission" : "callOperation";
  const result = binary ? typeRef("Download", billing.alias === undefined ? undefined : billing.extra()) : typeRef(names.response(op));
  const checked = body !== undefined && check !== undefined;
  const input = requestInput(op, keys, optionalParams, checked);
  const sendWith = (options: TS.Expression) =>
    call(send, binary ? undefined : [result, ...billing.extra()], [id("client"), id(names.spec(op)), input, options]);
  // An operation with servers of its own is sent through the runtime's atOperationServer, which picks its address
  // (and turns a bad one into a rejection); other operations' bundles leave it out.
  const sending = op.servers
    ? call("atOperationServer", undefined, [
        id("client"),
        id(names.spec(op)),
        id("options"),
        f.createArrowFunction(
          undefined,
          undefined,
          [f.createParameterDeclaration(undefined, undefined, "at")],
          undefined,
          f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
          sendWith(id("at")),
        ),
      ])
    : sendWith(id("options"));
  const statements: TS.Statement[] = [
    // The check returns the body to send (its URL normalised); the body as given is never sent.
    ...(checked
      ? [
          constant(
            "checked",
            call("checkSubscription", undefined, [
              id("body"),
              id("subscriptionRules"),
              objectOf([["create", check.create ? f.createTrue() : f.createFalse()]]),
            ]),
          ),
        ]
      : []),
    returns(sending),
  ];
  return {
    send,
    function: {
      name: names.operation(op),
      doc: context.doc,
      parameters: [
        { name: "client", type: billing.client() },
        ...(params.length > 0 ? [{ name: "params", type: typeRef(names.params(op)), optional: optionalParams }] : []),
        ...(body ? [{ name: "body", type: typeRef(names.body(op)), optional: !op.requestBody?.required }] : []),
        { name: "options", type: typeRef(op.servers ? "OperationServerOptions" : "RequestOptions"), optional: true },
      ],
      returnType: typeRef("Promise", [binary ? result : typeRef("ApiResult", [result, ...billing.extra()])]),
      body: statements,
    },
  };
}

export interface JobContext {
  readonly names: TsNames;
  readonly billing: BillingTypes;
  /** How the docs name the no-wait field, escaped. */
  readonly noWait: string;
  /** A pipeline's signature doc: the first carries the operation's description. */
  readonly pipelineDoc: (p: Pipeline, extraDoc: string, name: string, index: number) => string[];
}

export interface JobFunction {
  readonly call: string;
  readonly overloads: readonly FunctionSpec[];
  readonly implementation: FunctionSpec;
}

/**
 * A job submission's two functions, the submit-and-wait one and the start one: a signature per pipeline whose body is
 * exactly the pipeline's request (ExactBody), then one over every pipeline by its slug, then the implementation that
 * passes everything on. A call that fits no signature is reported against the last one, the signature over every
 * pipeline, whose body is the pipeline's discriminated union: tsc names the misspelt field there.
 */
export function jobFunctionSpecs(op: Operation, pipelines: readonly Pipeline[], context: JobContext): JobFunction[] {
  const { names, billing } = context;
  const withBilling = (type: TS.TypeNode): TS.TypeNode[] => [type, ...billing.extra()];
  const handle = () => typeRef("JobHandle", billing.alias === undefined ? undefined : billing.extra());
  const request = f.createIndexedAccessTypeNode(typeRef("JobRequests"), typeRef("P"));
  const functions = [
    {
      name: names.operation(op),
      returns: (p: Pipeline) => typeRef("Promise", [typeRef("JobResult", withBilling(typeRef(names.payload(p), [typeRef("B")])))]),
      anyReturns: typeRef("Promise", [typeRef("JobResult", withBilling(typeRef("JobPayloadOf", [typeRef("P"), typeRef("B")])))]),
      returnType: typeRef("Promise", [typeRef("JobResult", withBilling(unknownType()))]),
      doc: "Submits the job and waits: on hold, then by polling after a 202, until it completes, fails or the deadline passes.",
      call: "submitJob",
    },
    {
      name: names.start(op),
      returns: () => typeRef("Promise", [handle()]),
      anyReturns: typeRef("Promise", [handle()]),
      returnType: typeRef("Promise", [handle()]),
      doc: `Submits with ${context.noWait} and returns a handle at once; \`waitJob(client, handle.jobId)\` resumes from any process.`,
      call: "startJob",
    },
  ];
  const options = { name: "options", type: typeRef("JobOptions"), optional: true };
  return functions.map((fn) => ({
    call: fn.call,
    overloads: [
      ...pipelines.map((p, index) => ({
        name: fn.name,
        doc: context.pipelineDoc(p, fn.doc, fn.name, index),
        typeParameters: [typeParameter("B", typeRef(names.pipelineRequest(p)))],
        parameters: [
          { name: "client", type: billing.client() },
          { name: "pipeline", type: literalType(p.slug) },
          { name: "body", type: typeRef("ExactBody", [typeRef("B"), typeRef(names.pipelineRequest(p))]) },
          options,
        ],
        returnType: fn.returns(p),
      })),
      {
        name: fn.name,
        doc: [
          "Any pipeline by its slug, for a slug known only as one of the pipelines' union. The full description is on the",
          `first signature of {@link ${fn.name}}.`,
        ],
        typeParameters: [
          typeParameter("P", f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, typeRef("JobRequests"))),
          typeParameter("B", request),
        ],
        parameters: [
          { name: "client", type: billing.client() },
          { name: "pipeline", type: typeRef("P") },
          { name: "body", type: typeRef("ExactBody", [typeRef("B"), request]) },
          options,
        ],
        returnType: fn.anyReturns,
      },
    ],
    implementation: {
      name: fn.name,
      doc: [],
      parameters: [
        { name: "client", type: billing.client() },
        { name: "pipeline", type: stringType() },
        { name: "body", type: recordOf(unknownType()) },
        options,
      ],
      returnType: fn.returnType,
      body: [returns(call(fn.call, undefined, [id("client"), id("pipeline"), id("body"), id("options")]))],
    },
  }));
}

/**
 * waitJob of a client whose job submission has pipelines: without a pipeline the payload is unknown, with one it is
 * typed as that pipeline's (any of its variants'); the implementation passes everything on with the job model.
 */
export function typedWaitJobSpecs(billing: BillingTypes): FunctionSpec[] {
  const result = (payload: TS.TypeNode) => typeRef("Promise", [typeRef("JobResult", [payload, ...billing.extra()])]);
  const client = { name: "client", type: billing.client() };
  const jobId = { name: "jobId", type: stringType() };
  const withPipeline = (type: TS.TypeNode) =>
    f.createIntersectionTypeNode([
      typeRef("WaitOptions"),
      f.createTypeLiteralNode([f.createPropertySignature(undefined, "pipeline", undefined, type)]),
    ]);
  return [
    {
      name: "waitJob",
      doc: ["Waits for a job by id, from any process; its payload is unknown unless `pipeline` says whose job it is."],
      parameters: [client, jobId, { name: "options", type: typeRef("WaitOptions"), optional: true }],
      returnType: result(unknownType()),
    },
    {
      name: "waitJob",
      doc: ["Waits for a job of `options.pipeline` by id, from any process; the payload has that pipeline's type."],
      typeParameters: [typeParameter("P", f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, typeRef("JobRequests")))],
      parameters: [client, jobId, { name: "options", type: withPipeline(typeRef("P")) }],
      returnType: result(typeRef("JobPayloadOf", [typeRef("P")])),
    },
    {
      name: "waitJob",
      doc: [],
      parameters: [
        client,
        jobId,
        {
          name: "options",
          optional: true,
          type: f.createIntersectionTypeNode([
            typeRef("WaitOptions"),
            f.createTypeLiteralNode([
              f.createPropertySignature(undefined, "pipeline", f.createToken(ts.SyntaxKind.QuestionToken), stringType()),
            ]),
          ]),
        },
      ],
      returnType: result(unknownType()),
      body: [returns(call("waitJobOf", undefined, [id("client"), id("jobId"), id("options"), id("jobModel")]))],
    },
  ];
}
