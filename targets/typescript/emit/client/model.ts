import type { IR, Variant } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { exportedConstant, ts, tsFile } from "../ts-file.js";
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

/**
 * The model's job part and the rest, when it has job operations. The rest repeats the longest hold, which the
 * default deadline follows.
 */
export function splitJobPart(
  model: Record<string, unknown>,
): { client: Record<string, unknown>; jobs: Record<string, unknown> } | undefined {
  if (model.jobs === undefined) return undefined;
  const { pipelines, pricing, jobs, ...client } = model;
  const hold = (jobs as { submit?: { maxHoldSeconds?: number } }).submit?.maxHoldSeconds;
  return {
    client: { ...client, ...(hold !== undefined && { maxHoldSeconds: hold }) },
    jobs: { pipelines, ...(pricing !== undefined && { pricing }), jobs },
  };
}

function withoutConventions(model: Record<string, unknown>): Record<string, unknown> {
  const { conventions: _, ...rest } = model;
  return rest;
}

/** A variant's fields for the runtime's check before sending: none listed when its parameters are not shown. */
function variantFields(v: Variant): Record<string, unknown> {
  return {
    ...(v.discriminator && { discriminator: { property: v.discriminator.property, value: v.discriminator.value } }),
    ...(!v.open && { fields: v.request.properties.map((p) => p.name) }),
  };
}

/** model.ts: the plain data the runtime needs (release, pipelines, prices; errors.ts carries the error table) and the event names. */
export async function emitModel(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const sets = variantOperations(ir).map((o) => o.variants);
  // A pipeline without JSON text fields leaves out jsonStrings (the runtime reads none for it).
  const pipelines = Object.fromEntries(
    sets.flatMap((s) =>
      s.pipelines.map((p) => {
        const jsonStrings = [...new Set(p.variants.flatMap((v) => v.jsonStrings))].sort();
        return [
          p.slug,
          {
            payloadAfterPolling: p.payloadAfterPolling,
            ...(p.baseCredits !== undefined && { baseCredits: p.baseCredits }),
            ...(jsonStrings.length > 0 && { jsonStrings }),
            ...(p.variants.some((v) => !v.open) && { variants: p.variants.map(variantFields) }),
          },
        ];
      }),
    ),
  );
  const pricing = sets.find((s) => s.pricing)?.pricing;
  const model = {
    release: ir.info.version,
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
  // With job operations, the job part (pipelines, prices, the job operations) stands apart: the job functions import
  // it, and createClient takes the rest, so that a bundle without job functions leaves it out.
  const split = splitJobPart(model);
  return [
    tsFile(ir, kit, "model.ts", (file) => {
      const signing = ir.conventions?.webhooks;
      file.addImportDeclaration({
        isTypeOnly: true,
        moduleSpecifier: kit.runtimeModule,
        namedImports: [...(split === undefined ? [] : ["JobModel"]), "ServiceModel", ...(signing ? ["WebhookSigningModel"] : [])],
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
      if (split === undefined) {
        file.addStatement(
          exportedConstant(
            "serviceModel",
            jsonExpression(model),
            ["What the runtime needs to know about this release."],
            typeRef("ServiceModel"),
          ),
        );
      } else {
        file.addStatement(
          exportedConstant(
            "clientModel",
            jsonExpression(split.client),
            ["What every operation needs to know about this release: the model without its job part (createClient's)."],
            typeRef("ServiceModel"),
          ),
        );
        file.addStatement(
          exportedConstant(
            "jobModel",
            jsonExpression(split.jobs),
            ["The job part of the model: pipelines, prices and the job operations, which the job functions pass."],
            typeRef("JobModel"),
          ),
        );
        // Marked pure, so that bundlers drop it where nothing reads it.
        const both = f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier("Object"), "assign"), undefined, [
          f.createObjectLiteralExpression(),
          f.createIdentifier("clientModel"),
          f.createIdentifier("jobModel"),
        ]);
        file.addStatement(
          exportedConstant(
            "serviceModel",
            ts.addSyntheticLeadingComment(both, ts.SyntaxKind.MultiLineCommentTrivia, " @__PURE__ ", false),
            ["What the runtime needs to know about this release: both parts."],
            typeRef("ServiceModel"),
          ),
        );
      }
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
