import { describe, expect, it } from "vitest";
import { emitModel } from "../emit/client/model.js";
import { emitOperations } from "../emit/client/operations.js";
import { createKit } from "../../../generator/emit/kit.js";
import { tsKit } from "../emit/ts-kit.js";
import { buildIR } from "../../../generator/ir/build.js";
import { checkDescription } from "../../../generator/spec/load.js";

// Three bodies of the same subscription-like shape (url and events): only the description's mark makes a check,
// and only when the description also names the subscription's fields.
const hook = {
  type: "object",
  required: ["url", "events"],
  properties: {
    url: { type: "string" },
    events: { type: "array", items: { type: "string" } },
    max_retries: { type: "integer", minimum: 0, maximum: 7 },
  },
};
const operation = (operationId: string, mark?: "create" | "update") => ({
  post: {
    operationId,
    ...(mark && { "x-paperoffice-webhook-subscription": mark }),
    requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Hook" } } } },
    responses: { "200": { description: "ok" } },
  },
});
const document = {
  openapi: "3.1.0",
  info: { title: "hooks", version: "1" },
  // The check follows the body's field names the description states.
  "x-paperoffice-conventions": { webhookSubscription: { url: "url", events: "events", maxRetries: "max_retries" } },
  paths: {
    "/callbacks": operation("registerCallback"),
    "/hooks/add": operation("addHook", "create"),
    "/hooks/edit": operation("editHook", "update"),
  },
  webhooks: { "thing.done": { post: { requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: {} } } },
  components: { schemas: { Hook: hook } },
};

async function emitted(description: Record<string, unknown> = document): Promise<{ operations: string; model: string }> {
  const ir = buildIR(await checkDescription({ source: "hooks.json", text: JSON.stringify(description), document: description }));
  const kit = tsKit(createKit());
  const [[operations], [model]] = await Promise.all([emitOperations(ir, kit), emitModel(ir, kit)]);
  return { operations: operations!.content, model: model!.content };
}

/** The statements of one exported function of operations.ts. */
const functionBody = (text: string, name: string): string => {
  const start = text.indexOf(`export function ${name}(`);
  return text.slice(start, text.indexOf("\n}\n", start));
};

describe("the webhook subscription check", () => {
  it("is made only where the description marks the operation, create or update as marked", async () => {
    const { operations } = await emitted();
    expect(functionBody(operations, "addHook")).toContain("checkSubscription(body, subscriptionRules, { create: true });");
    expect(functionBody(operations, "editHook")).toContain("checkSubscription(body, subscriptionRules, { create: false });");
    expect(functionBody(operations, "registerCallback")).not.toContain("checkSubscription");
  });

  it("is not made where the description names no subscription fields", async () => {
    const { "x-paperoffice-conventions": _, ...unnamed } = document;
    const { operations, model } = await emitted(unnamed);
    expect(functionBody(operations, "addHook")).not.toContain("checkSubscription");
    expect(model).not.toContain("subscriptionRules");
  });

  it("sends the body the check returns (its URL normalised), never the body as given", async () => {
    const { operations } = await emitted();
    for (const name of ["addHook", "editHook"]) {
      expect(functionBody(operations, name)).toContain("const checked = checkSubscription(body, subscriptionRules");
      expect(functionBody(operations, name)).toContain("{ body: checked }");
    }
  });

  it("takes its rules from the marked body and the webhooks", async () => {
    const { model } = await emitted();
    // Keys are printed as identifiers where they are ones, quoted otherwise.
    expect(model).toMatch(/"?eventNames"?: \[\s*"thing\.done"\s*\]/);
    expect(model).toMatch(/"?maxRetries"?: \{\s*"?minimum"?: 0,\s*"?maximum"?: 7\s*\}/);
    expect(model).toMatch(/"?required"?: \[\s*"url",\s*"events"\s*\]/);
  });

  it("still has the rules its check imports when only an update is marked", async () => {
    const { operations, model } = await emitted({ ...document, paths: { "/hooks/edit": operation("editHook", "update") } });
    expect(operations).toContain('import { subscriptionRules } from "./model.js";');
    expect(model).toContain("export const subscriptionRules = {");
  });
});
