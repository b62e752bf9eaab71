import type { IR } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { exportedConstant, tsFile } from "../ts-file.js";
import { factory as f, jsonExpression, typeRef } from "../ts-nodes.js";
import { subscriptionRules, variantOperations } from "./scope.js";
import { descriptionModel } from "./spec.js";

/** `value as const`, with a JSON value as an object or array literal. */
const asConst = (value: unknown) => f.createAsExpression(jsonExpression(value), typeRef("const"));

/**
 * The conventions every client carries, without the webhook names: those travel in webhookSigning and
 * subscriptionRules, which only the code that uses them imports, so that a bundle of other operations leaves them out.
 */
function modelConventions(ir: IR): { conventions?: Omit<NonNullable<IR["conventions"]>, "webhooks" | "webhookSubscription"> } {
  if (ir.conventions === undefined) return {};
  const { webhooks: _signing, webhookSubscription: _fields, ...rest } = ir.conventions;
  return Object.keys(rest).length > 0 ? { conventions: rest } : {};
}

function withoutConventions(model: Record<string, unknown>): Record<string, unknown> {
  const { conventions: _, ...rest } = model;
  return rest;
}

/** model.ts: the plain data the runtime needs (release, error table, pipelines, prices) and the event names. */
export async function emitModel(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const sets = variantOperations(ir).map((o) => o.variants);
  const pipelines = Object.fromEntries(
    sets.flatMap((s) =>
      s.pipelines.map((p) => [
        p.slug,
        {
          payloadAfterPolling: p.payloadAfterPolling,
          ...(p.baseCredits !== undefined && { baseCredits: p.baseCredits }),
          jsonStrings: [...new Set(p.variants.flatMap((v) => v.jsonStrings))].sort(),
        },
      ]),
    ),
  );
  const pricing = sets.find((s) => s.pricing)?.pricing;
  const model = {
    release: ir.info.version,
    descriptionHash: ir.info.descriptionHash,
    errors: Object.fromEntries(ir.errors.map((e) => [e.code, { status: e.status }])),
    pipelines,
    ...(pricing && {
      pricing: {
        laneMultipliers: pricing.laneMultipliers,
        defaultLane: pricing.defaultLane,
        ...(pricing.minimumCharge !== undefined && { minimumCharge: pricing.minimumCharge }),
      },
    }),
    ...withoutConventions(descriptionModel(ir)),
    ...modelConventions(ir),
  };
  return [
    tsFile(ir, kit, "model.ts", (file) => {
      const signing = ir.conventions?.webhooks;
      file.addImportDeclaration({
        isTypeOnly: true,
        moduleSpecifier: kit.runtimeModule,
        namedImports: ["ServiceModel", ...(signing ? ["WebhookSigningModel"] : [])],
      });
      file.addStatement(
        exportedConstant("RELEASE", f.createStringLiteral(ir.info.version), [
          "The release this client was generated from; sent in the User-Agent.",
        ]),
      );
      file.addStatement(
        exportedConstant("DESCRIPTION_HASH", f.createStringLiteral(ir.info.descriptionHash), [
          "sha256 of the description this client was generated from.",
        ]),
      );
      file.addStatement(
        exportedConstant(
          "serviceModel",
          jsonExpression(model),
          ["What the runtime needs to know about this release."],
          typeRef("ServiceModel"),
        ),
      );
      file.addStatement(
        exportedConstant("webhookEventTypes", asConst(ir.webhooks.map((w) => w.event)), ["Every webhook event type of the description."]),
      );
      if (signing) {
        file.addStatement(
          exportedConstant("webhookSigning", f.createSatisfiesExpression(asConst(signing), typeRef("WebhookSigningModel")), [
            "How deliveries are signed and named, from the description; the webhook helpers read every name from it.",
          ]),
        );
      }
      // The create body shows the whole subscription; a description that marks only an update still needs the
      // rules its check imports.
      const marked = ir.operations.flatMap((op) => subscriptionRules(ir, op) ?? []);
      const rules = marked.find((r) => r.create) ?? marked[0];
      if (rules) {
        const { create: _, ...data } = rules;
        file.addStatement(
          exportedConstant("subscriptionRules", asConst(data), [
            "What a webhook subscription is checked against before it is sent, from the description.",
          ]),
        );
      }
    }),
  ];
}
