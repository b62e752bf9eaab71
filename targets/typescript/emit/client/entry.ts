import type { IR } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsDocText } from "../escape.js";
import { tsFile } from "../ts-file.js";
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
  const webhooks = tsFile(
    ir,
    kit,
    "webhooks.ts",
    (file) => {
      file.addImportDeclaration({
        moduleSpecifier: runtimeWebhooks,
        namedImports: ["verifyWebhook", "type VerifiedEvent", "type WebhookHeaders"],
      });
      file.addImportDeclaration({ moduleSpecifier: "./model.js", namedImports: ["webhookEventTypes"] });
      // Receivers need the known event names; re-exported so that a server imports this entry alone.
      file.addExportDeclaration({ moduleSpecifier: "./model.js", namedExports: ["webhookEventTypes"] });
      // The typed `verify` declared below takes precedence over the runtime's untyped `verify` of this `export *`.
      file.addExportDeclaration({ moduleSpecifier: runtimeWebhooks });
      file.addTypeAlias({
        isExported: true,
        name: "WebhookEvent",
        docs: ["Every webhook delivery body of the description, discriminated on `event_type`."],
        type: webhookEventType(ir, response),
      });
      file.addTypeAlias({ isExported: true, name: "WebhookEventType", type: "(typeof webhookEventTypes)[number]" });
      file.addFunction({
        isExported: true,
        name: "verify",
        docs: [
          "Verifies a delivery's `sha256=<hex>` signature over the raw body, before parsing it, and returns the typed event.\nAn event type this release does not know is returned as an unknown event, not dropped.",
        ],
        parameters: [
          { name: "rawBody", type: "string | Uint8Array" },
          { name: "headers", type: "WebhookHeaders" },
          { name: "secret", type: "string | readonly string[]" },
        ],
        returnType: "Promise<VerifiedEvent<WebhookEvent>>",
        statements: ["return verifyWebhook<WebhookEvent>(rawBody, headers, secret, { knownEventTypes: webhookEventTypes });"],
      });
    },
    () => typeImports(uses, runtimeWebhooks),
  );
  // Answers' meta.billing typed with the description's billing schema, when it names one.
  const billingName = billingSchema(ir);
  const billing = billingName === undefined ? undefined : tsNames(ir).schema(billingName);
  // The paths type types the client's openapi-fetch instance (client.openapi).
  const client = `Runtime<${billing ?? "BillingData"}, paths>`;
  const index = tsFile(ir, kit, "index.ts", (file) => {
    file.addImportDeclaration({
      moduleSpecifier: kit.runtimeModule,
      namedImports: ["Runtime", ...(billing === undefined ? ["type BillingData"] : []), "type ClientOptions"],
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
 * The union of the webhook bodies. The runtime accepts only deliveries with a string `event_type`; where a body
 * does not declare it required, the type says so itself, as the runtime's verify and handlers need.
 */
function webhookEventType(ir: IR, scope: TypeScope): string {
  if (ir.webhooks.length === 0) return "never";
  const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const bodies: TypeNode = {
    kind: "union",
    members: [...new Map(ir.webhooks.map((w) => [printNode(typeNode(w.body, scope)), typeNode(w.body, scope)])).values()],
  };
  const declared = ir.webhooks.every((w) => {
    const type = flattenObject(w.body, named).properties.find((p) => p.name === "event_type");
    const s = type?.schema.kind === "ref" ? named.get(type.schema.name) : type?.schema;
    return type?.required === true && (s?.kind === "string" || (s?.kind === "enum" && s.values.every((v) => typeof v === "string")));
  });
  if (declared) return bodies.members.length === 1 ? printNode(bodies.members[0]!) : printNode(bodies);
  return printNode({ kind: "intersection", members: [bodies, atom("{ event_type: string }")] });
}
