import type { IR, WebhookConventions } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import type * as TS from "typescript";
import { tsDocCode, tsDocText } from "../escape.js";
import { type Statements, ts, tsFile } from "../ts-file.js";
import { flattenObject } from "../../../../generator/ir/flatten.js";
import { versionLabel } from "../../../../generator/emit/readme-facts.js";
import type { TypeScope } from "../ts-type.js";
import {
  factory as f,
  intersectionOf,
  literalType,
  neverType,
  printNode,
  schemaType,
  stringType,
  typeAlias,
  typeLiteral,
  typeRef,
  unionOf,
} from "../ts-nodes.js";
import { call, type FunctionSpec, id, parameter, printFunction, returns } from "../ts-functions.js";
import { tsNames } from "../names.js";
import { scopes, subscriptionRules, typeImports } from "./scope.js";
import { sdkSurface } from "./sdk-surface.js";
import { billingSchema, jobsModel } from "./spec.js";

/**
 * webhooks.ts (the event union, a typed verify and the runtime's webhook helpers) and index.ts (createClient and the
 * re-exports). Receiving webhooks is server-side only, so it is a separate entry: clients that only call the API
 * neither bundle nor type-check it.
 */
export async function emitEntry(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const { response, uses } = scopes(ir);
  const runtimeWebhooks = kit.runtimeWebhooksModule;
  const signing = ir.conventions?.webhooks;
  const webhooks = tsFile(
    ir,
    kit,
    "webhooks.ts",
    (file) => {
      if (signing) {
        file.addImportDeclaration({
          moduleSpecifier: runtimeWebhooks,
          namedImports: [
            "createNodeWebhookHandler as nodeHandler",
            "createWebhookHandler as webHandler",
            "createWebhookProcessor as processor",
            "signWebhook as signWith",
            "verifyWebhook",
            "type SignOptions",
            "type VerifiedEvent",
            "type WebhookEventCallbacks as EventCallbacks",
            "type WebhookHandlerOptions",
            "type WebhookHeaders",
            "type WebhookOutcome",
          ],
        });
      }
      file.addImportDeclaration({
        moduleSpecifier: "./model.js",
        namedImports: ["webhookEventTypes", ...(signing ? ["webhookSigning"] : [])],
      });
      // Receivers need the known event names; re-exported so that a server imports this entry alone.
      file.addExportDeclaration({
        moduleSpecifier: "./model.js",
        namedExports: ["webhookEventTypes", ...(signing ? ["webhookSigning"] : [])],
      });
      // The helpers declared below take precedence over the runtime's generic ones of this `export *`.
      file.addExportDeclaration({ moduleSpecifier: runtimeWebhooks });
      file.addPrinted(
        typeAlias("WebhookEvent", webhookEventType(ir, response), [
          signing
            ? `Every webhook delivery body of the description, discriminated on \`${tsDocCode(signing.body.eventType)}\`.`
            : "Every webhook delivery body of the description.",
        ]),
      );
      // `(typeof webhookEventTypes)[number]`
      file.addPrinted(
        typeAlias(
          "WebhookEventType",
          f.createIndexedAccessTypeNode(
            f.createTypeQueryNode(f.createIdentifier("webhookEventTypes")),
            f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
          ),
          [],
        ),
      );
      if (signing) addSigningHelpers(file, signing);
    },
    () => typeImports(uses, runtimeWebhooks),
  );
  // Answers' meta.billing typed with the description's billing schema, when it names one.
  const billingName = billingSchema(ir);
  const billing = billingName === undefined ? undefined : tsNames(ir).schema(billingName);
  // The paths type types the client's openapi-fetch instance (client.openapi). The client holds options only: the job
  // helpers, like every way of sending, are functions its operations import.
  const runtimeClass = "Runtime";
  const client = () => f.createTypeReferenceNode(runtimeClass, [typeRef(billing ?? "BillingData"), typeRef("paths")]);
  const kinds = schemeKinds(ir);
  const index = tsFile(ir, kit, "index.ts", (file) => {
    file.addImportDeclaration({
      moduleSpecifier: kit.runtimeModule,
      namedImports: [
        runtimeClass,
        ...(billing === undefined ? ["type BillingData"] : []),
        "type ClientOptions",
        ...kinds.map(([, applier]) => applier),
      ],
    });
    file.addImportDeclaration({ moduleSpecifier: "./errors.js", namedImports: ["errorClasses"] });
    // With job operations, createClient takes the model without its job part, which the job functions pass.
    const modelName = jobsModel(ir) === undefined ? "serviceModel" : "clientModel";
    file.addImportDeclaration({ moduleSpecifier: "./model.js", namedImports: [modelName] });
    if (billing !== undefined) file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: "./schemas.js", namedImports: [billing] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: "./types.js", namedImports: ["paths"] });
    for (const module of ["./errors.js", "./model.js", "./operations.js", "./requests.js", "./schemas.js"])
      file.addExportDeclaration({ moduleSpecifier: module });
    file.addExportDeclaration({ isTypeOnly: true, moduleSpecifier: "./types.js", namedExports: ["components", "paths", "webhooks"] });
    // The SDK's surface of the runtime only; the job helpers come from operations.ts with the model's job part bound.
    file.addExportDeclaration({
      moduleSpecifier: kit.runtimeModule,
      namedExports: [
        ...sdkSurface({
          jobs: modelName === "clientModel",
          subscriptions: ir.operations.some((op) => subscriptionRules(ir, op) !== undefined),
          pagination: ir.operations.some((op) => op.pagination !== undefined),
          nextPagination: ir.operations.some((op) => op.pagination !== undefined && op.pagination.kind !== "offset"),
        }),
      ],
    });
    file.addPrinted(
      printFunction({
        name: "createClient",
        doc: tsDocText(`A client of ${ir.info.title} ${versionLabel(ir.info.version)}. Pass it to the operation functions.`).split("\n"),
        // Every option has a default from the description (servers, environment variables), so none is required.
        parameters: [{ name: "options", type: typeRef("ClientOptions"), initializer: f.createObjectLiteralExpression([], false) }],
        returnType: client(),
        body: [
          returns(
            f.createNewExpression(f.createIdentifier(runtimeClass), client().typeArguments, [
              id(modelName),
              id("options"),
              id("errorClasses"),
              // `{ apiKey: apiKeyScheme }`: the kinds of security scheme besides bearer tokens the description uses.
              ...(kinds.length === 0
                ? []
                : [f.createObjectLiteralExpression(kinds.map(([kind, applier]) => f.createPropertyAssignment(kind, id(applier))))]),
            ]),
          ),
        ],
      }),
    );
  });
  return [webhooks, index];
}

/**
 * The kinds of security scheme of the description other than bearer tokens, with the runtime's export that sends
 * each (the names of runtime/auth-schemes.ts), in a fixed order. The runtime sends bearer tokens (http bearer,
 * oauth2, openIdConnect) itself.
 */
export function schemeKinds(ir: IR): [kind: string, applier: string][] {
  const used = new Set<string>(
    ir.securitySchemes.map((s) => {
      if (s.type !== "http") return s.type;
      const scheme = (s.scheme ?? "bearer").toLowerCase();
      return scheme === "bearer" || scheme === "basic" ? scheme : "http";
    }),
  );
  const all: [string, string][] = [
    ["apiKey", "apiKeyScheme"],
    ["basic", "basicScheme"],
    ["http", "httpScheme"],
    ["mutualTLS", "mutualTLSScheme"],
  ];
  return all.filter(([kind]) => used.has(kind));
}

/**
 * verify, sign and the receivers bound to the description's signing names and event type field, so that a server
 * passes only its secret and callbacks.
 */
function addSigningHelpers(file: Statements, signing: WebhookConventions): void {
  const typeField = () => literalType(signing.body.eventType);
  const fields = () => unionOf([...new Set([signing.body.eventType, signing.body.eventId])].map(literalType));
  const event = () => typeRef("WebhookEvent");
  // `{ ...options, knownEventTypes: webhookEventTypes, signing: webhookSigning }`: the description's names win.
  const bound = () =>
    f.createObjectLiteralExpression(
      [
        f.createSpreadAssignment(id("options")),
        f.createPropertyAssignment("knownEventTypes", id("webhookEventTypes")),
        f.createPropertyAssignment("signing", id("webhookSigning")),
      ],
      false,
    );
  const bytes = () => unionOf([stringType(), typeRef("Uint8Array")]);
  file.addPrinted(typeAlias("WebhookEventCallbacks", typeRef("EventCallbacks", [event(), typeField()]), []));
  file.addPrinted(
    typeAlias(
      "ReceiverOptions",
      typeRef("Omit", [
        typeRef("WebhookHandlerOptions", [event(), typeField()]),
        unionOf([literalType("knownEventTypes"), literalType("signing")]),
      ]),
      ["A receiver's options: the event names and signing names come from the description."],
    ),
  );
  const functions: FunctionSpec[] = [
    {
      name: "verify",
      doc: [
        `Verifies a delivery's \`${tsDocCode(signing.signature.header)}\` signature over the raw body, before parsing it, and returns the typed event.`,
        "An event type this release does not know is returned as an unknown event, not dropped.",
        ...(signing.body.timestamp === undefined
          ? []
          : [
              `A delivery whose signed \`${tsDocCode(signing.body.timestamp)}\` lies more than \`maxAgeMs\` from this machine's clock (300 s by default; \`false\` turns the check off) is refused with StaleDeliveryError.`,
            ]),
      ],
      parameters: [
        { name: "rawBody", type: bytes() },
        { name: "headers", type: typeRef("WebhookHeaders") },
        {
          name: "secret",
          type: unionOf([stringType(), f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(stringType()))]),
        },
        {
          name: "options",
          // `{ maxAgeMs?: number | false }`, on one line: the replay window, 300 s by default.
          type: ts.setEmitFlags(
            typeLiteral(
              [
                {
                  name: "maxAgeMs",
                  optional: true,
                  type: unionOf([f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword), f.createLiteralTypeNode(f.createFalse())]),
                  doc: [],
                },
              ],
              false,
              0,
            ),
            ts.EmitFlags.SingleLine,
          ),
          initializer: f.createObjectLiteralExpression([], false),
        },
      ],
      returnType: typeRef("Promise", [typeRef("VerifiedEvent", [event(), fields()])]),
      body: [returns(call("verifyWebhook", [event(), fields()], [id("rawBody"), id("headers"), id("secret"), bound()]))],
    },
    {
      name: "signWebhook",
      doc: [`The \`${tsDocCode(signing.signature.header)}\` value of a body: what the service sends (for tests of a receiver).`],
      parameters: [
        { name: "body", type: bytes() },
        { name: "secret", type: stringType() },
        { name: "options", type: typeRef("SignOptions"), initializer: f.createObjectLiteralExpression([], false) },
      ],
      returnType: typeRef("Promise", [stringType()]),
      body: [returns(call("signWith", undefined, [id("body"), id("secret"), id("webhookSigning"), id("options")]))],
    },
  ];
  const receivers: [string, string, TS.TypeNode, string][] = [
    [
      "createWebhookProcessor",
      "processor",
      f.createFunctionTypeNode(
        undefined,
        [parameter({ name: "rawBody", type: bytes() }), parameter({ name: "headers", type: typeRef("WebhookHeaders") })],
        typeRef("Promise", [typeRef("WebhookOutcome")]),
      ),
      "The framework-neutral receiver.",
    ],
    [
      "createWebhookHandler",
      "webHandler",
      f.createFunctionTypeNode(
        undefined,
        [parameter({ name: "request", type: typeRef("Request") })],
        typeRef("Promise", [typeRef("Response")]),
      ),
      "A web-standard (fetch) receiver.",
    ],
    // The runtime's own type: naming node:http here would need Node's types in every project that compiles the SDK.
    ["createNodeWebhookHandler", "nodeHandler", typeRef("ReturnType", [f.createTypeQueryNode(id("nodeHandler"))]), "A node:http receiver."],
  ];
  for (const [name, runtimeName, returnType, doc] of receivers) {
    functions.push({
      name,
      doc: [doc],
      parameters: [{ name: "options", type: typeRef("ReceiverOptions") }],
      returnType,
      body: [returns(call(runtimeName, [event(), typeField()], [bound()]))],
    });
  }
  for (const fn of functions) file.addPrinted(`${printFunction(fn)}\n`);
}

/**
 * The union of the webhook bodies. The runtime accepts only deliveries with a string event type field (the
 * description's); where a body does not declare it required, the type says so itself, as verify and the receivers need.
 */
function webhookEventType(ir: IR, scope: TypeScope): TS.TypeNode {
  if (ir.webhooks.length === 0) return neverType();
  const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const bodies = unionOf([
    ...new Map(ir.webhooks.map((w) => [printNode(schemaType(w.body, scope, 0)), schemaType(w.body, scope, 0)])).values(),
  ]);
  const field = ir.conventions?.webhooks?.body.eventType;
  if (field === undefined) return bodies;
  const declared = ir.webhooks.every((w) => {
    const type = flattenObject(w.body, named).properties.find((p) => p.name === field);
    const s = type?.schema.kind === "ref" ? named.get(type.schema.name) : type?.schema;
    return type?.required === true && (s?.kind === "string" || (s?.kind === "enum" && s.values.every((v) => typeof v === "string")));
  });
  if (declared) return bodies;
  return intersectionOf([bodies, typeLiteral([{ name: field, optional: false, type: stringType(), doc: [] }], false, 1)]);
}
