import type { IR, WebhookConventions } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsDocText, tsString, tsTypeKey } from "../escape.js";
import { type Statements, tsFile } from "../ts-file.js";
import { flattenObject } from "../../../../generator/ir/flatten.js";
import { atom, printNode, type TypeNode, type TypeScope, typeNode } from "../ts-type.js";
import { tsNames } from "../names.js";
import { scopes, typeImports } from "./scope.js";
import { billingSchema } from "./spec.js";

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
      file.addTypeAlias({
        isExported: true,
        name: "WebhookEvent",
        docs: [
          signing
            ? `Every webhook delivery body of the description, discriminated on \`${signing.body.eventType}\`.`
            : "Every webhook delivery body of the description.",
        ],
        type: webhookEventType(ir, response),
      });
      file.addTypeAlias({ isExported: true, name: "WebhookEventType", type: "(typeof webhookEventTypes)[number]" });
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
  const client = `${runtimeClass}<${billing ?? "BillingData"}, paths>`;
  const index = tsFile(ir, kit, "index.ts", (file) => {
    file.addImportDeclaration({
      moduleSpecifier: kit.runtimeModule,
      namedImports: [runtimeClass, ...(billing === undefined ? ["type BillingData"] : []), "type ClientOptions"],
    });
    file.addImportDeclaration({ moduleSpecifier: "./errors.js", namedImports: ["errorClasses"] });
    file.addImportDeclaration({ moduleSpecifier: "./model.js", namedImports: ["serviceModel"] });
    if (billing !== undefined) file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: "./schemas.js", namedImports: [billing] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: "./types.js", namedImports: ["paths"] });
    for (const module of ["./errors.js", "./model.js", "./operations.js", "./requests.js", "./schemas.js"])
      file.addExportDeclaration({ moduleSpecifier: module });
    file.addExportDeclaration({ isTypeOnly: true, moduleSpecifier: "./types.js", namedExports: ["components", "paths", "webhooks"] });
    file.addExportDeclaration({ moduleSpecifier: kit.runtimeModule });
    file.addFunction({
      isExported: true,
      name: "createClient",
      docs: [tsDocText(`A client of ${ir.info.title} release ${ir.info.version}. Pass it to the operation functions.`)],
      // Every option has a default from the description (servers, environment variables), so none is required.
      parameters: [{ name: "options", type: "ClientOptions", initializer: "{}" }],
      returnType: client,
      statements: [`return new ${client}(serviceModel, options, errorClasses);`],
    });
  });
  return [webhooks, index];
}

/**
 * verify, sign and the receivers bound to the description's signing names and event type field, so that a server
 * passes only its secret and callbacks.
 */
function addSigningHelpers(file: Statements, signing: WebhookConventions): void {
  const typeField = tsString(signing.body.eventType);
  const fields = [...new Set([signing.body.eventType, signing.body.eventId])].map(tsString).join(" | ");
  const bound = "{ knownEventTypes: webhookEventTypes, signing: webhookSigning }";
  file.addTypeAlias({ isExported: true, name: "WebhookEventCallbacks", type: `EventCallbacks<WebhookEvent, ${typeField}>` });
  file.addTypeAlias({
    isExported: true,
    name: "ReceiverOptions",
    docs: ["A receiver's options: the event names and signing names come from the description."],
    type: `Omit<WebhookHandlerOptions<WebhookEvent, ${typeField}>, "knownEventTypes" | "signing">`,
  });
  file.addFunction({
    isExported: true,
    name: "verify",
    docs: [
      `Verifies a delivery's \`${signing.signature.header}\` signature over the raw body, before parsing it, and returns the typed event.\nAn event type this release does not know is returned as an unknown event, not dropped.`,
    ],
    parameters: [
      { name: "rawBody", type: "string | Uint8Array" },
      { name: "headers", type: "WebhookHeaders" },
      { name: "secret", type: "string | readonly string[]" },
      { name: "options", type: "{ maxAgeMs?: number }", initializer: "{}" },
    ],
    returnType: `Promise<VerifiedEvent<WebhookEvent, ${fields}>>`,
    statements: [`return verifyWebhook<WebhookEvent, ${fields}>(rawBody, headers, secret, { ...options, ...${bound} });`],
  });
  file.addFunction({
    isExported: true,
    name: "signWebhook",
    docs: [`The \`${signing.signature.header}\` value of a body: what the service sends (for tests of a receiver).`],
    parameters: [
      { name: "body", type: "string | Uint8Array" },
      { name: "secret", type: "string" },
      { name: "options", type: "SignOptions", initializer: "{}" },
    ],
    returnType: "Promise<string>",
    statements: ["return signWith(body, secret, webhookSigning, options);"],
  });
  const receivers: [string, string, string, string][] = [
    [
      "createWebhookProcessor",
      "processor",
      "(rawBody: string | Uint8Array, headers: WebhookHeaders) => Promise<WebhookOutcome>",
      "The framework-neutral receiver.",
    ],
    ["createWebhookHandler", "webHandler", "(request: Request) => Promise<Response>", "A web-standard (fetch) receiver."],
    // The runtime's own type: naming node:http here would need Node's types in every project that compiles the SDK.
    ["createNodeWebhookHandler", "nodeHandler", "ReturnType<typeof nodeHandler>", "A node:http receiver."],
  ];
  for (const [name, runtimeName, returnType, doc] of receivers) {
    file.addFunction({
      isExported: true,
      name,
      docs: [doc],
      parameters: [{ name: "options", type: "ReceiverOptions" }],
      returnType,
      statements: [`return ${runtimeName}<WebhookEvent, ${typeField}>({ ...options, ...${bound} });`],
    });
  }
}

/**
 * The union of the webhook bodies. The runtime accepts only deliveries with a string event type field (the
 * description's); where a body does not declare it required, the type says so itself, as verify and the receivers need.
 */
function webhookEventType(ir: IR, scope: TypeScope): string {
  if (ir.webhooks.length === 0) return "never";
  const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const bodies: TypeNode = {
    kind: "union",
    members: [...new Map(ir.webhooks.map((w) => [printNode(typeNode(w.body, scope)), typeNode(w.body, scope)])).values()],
  };
  const field = ir.conventions?.webhooks?.body.eventType;
  if (field === undefined) return printNode(bodies.members.length === 1 ? bodies.members[0]! : bodies);
  const declared = ir.webhooks.every((w) => {
    const type = flattenObject(w.body, named).properties.find((p) => p.name === field);
    const s = type?.schema.kind === "ref" ? named.get(type.schema.name) : type?.schema;
    return type?.required === true && (s?.kind === "string" || (s?.kind === "enum" && s.values.every((v) => typeof v === "string")));
  });
  if (declared) return bodies.members.length === 1 ? printNode(bodies.members[0]!) : printNode(bodies);
  return printNode({ kind: "intersection", members: [bodies, atom(`{ ${tsTypeKey(field)}: string }`)] });
}
