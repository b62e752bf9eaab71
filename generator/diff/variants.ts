/** Compares the x-paperoffice-variants extension: pipelines, variants, discriminators, per-variant bodies, prices. */
import type { Operation, Pipeline, Variant } from "../ir/types.js";
import { join } from "../spec/pointer.js";
import { VARIANTS_KEY } from "../spec/variants.js";
import { schemaPointer } from "../ir/flatten.js";
import { type Change, fixedChange, type NamedMap } from "./model.js";
import { compareSchemas } from "./schema.js";

const extPointer = (op: Operation, ...tokens: (string | number)[]) => join("", "paths", op.path, op.method, VARIANTS_KEY, ...tokens);
const pipelinePointer = (op: Operation, p: Pipeline, ...tokens: (string | number)[]) =>
  extPointer(op, "pipelines", op.variants!.pipelines.indexOf(p), ...tokens);
const variantPointer = (op: Operation, p: Pipeline, v: Variant, ...tokens: (string | number)[]) =>
  pipelinePointer(op, p, "variants", p.variants.indexOf(v), ...tokens);

export function compareVariants(o: Operation, n: Operation, named: { old: NamedMap; new: NamedMap }, out: Change[]): void {
  const [a, b] = [o.variants!, n.variants!];
  if (a.selector !== b.selector) {
    out.push(
      fixedChange(
        "variants.selector.changed",
        extPointer(n, "selector"),
        "new",
        `${n.id}: the pipeline is now named by \`${b.selector}\`, not \`${a.selector}\``,
      ),
    );
  }
  comparePricing(o, n, out);
  for (const p of a.pipelines) {
    if (!b.pipelines.some((q) => q.slug === p.slug)) {
      out.push(fixedChange("variants.pipeline.removed", pipelinePointer(o, p), "old", `pipeline ${p.slug} was removed`));
    }
  }
  for (const q of b.pipelines) {
    const p = a.pipelines.find((x) => x.slug === q.slug);
    if (!p) {
      out.push(
        fixedChange(
          "variants.pipeline.added",
          pipelinePointer(n, q),
          "new",
          `pipeline ${q.slug} was added (${q.variants.map((v) => v.name).join(", ")})`,
        ),
      );
      continue;
    }
    if (p.payloadAfterPolling !== q.payloadAfterPolling) {
      out.push(
        fixedChange(
          "variants.payload-location.changed",
          pipelinePointer(n, q, "payloadAfterPolling"),
          "new",
          `pipeline ${q.slug}: the payload after polling is now in \`${q.payloadAfterPolling}\`, not \`${p.payloadAfterPolling}\``,
        ),
      );
    }
    if (p.baseCredits !== q.baseCredits) {
      out.push(
        fixedChange(
          "variants.price.base-credits-changed",
          pipelinePointer(n, q, "baseCredits"),
          "new",
          `pipeline ${q.slug}: base credits ${p.baseCredits ?? "none"} -> ${q.baseCredits ?? "none"}`,
        ),
      );
    }
    comparePipeline(o, n, p, q, named, out);
  }
}

function comparePipeline(
  o: Operation,
  n: Operation,
  p: Pipeline,
  q: Pipeline,
  named: { old: NamedMap; new: NamedMap },
  out: Change[],
): void {
  for (const v of p.variants) {
    if (!q.variants.some((x) => x.name === v.name)) {
      out.push(fixedChange("variants.variant.removed", variantPointer(o, p, v), "old", `${p.slug}/${v.name}: the variant was removed`));
    }
  }
  for (const w of q.variants) {
    const v = p.variants.find((x) => x.name === w.name);
    const label = `${q.slug}/${w.name}`;
    if (!v) {
      const how = w.discriminator ? ` (${w.discriminator.property}=${w.discriminator.value})` : "";
      out.push(fixedChange("variants.variant.added", variantPointer(n, q, w), "new", `${label}: the variant was added${how}`));
      continue;
    }
    const [d, e] = [v.discriminator, w.discriminator];
    const at = variantPointer(n, q, w, "discriminator");
    if (d?.property !== e?.property || d?.value !== e?.value) {
      const text = (x: typeof d) => (x ? `${x.property}=${x.value}` : "none");
      out.push(fixedChange("variants.discriminator.changed", at, "new", `${label}: chosen by ${text(e)}, not ${text(d)}`));
    } else if (d?.serverDefault && !e?.serverDefault) {
      out.push(
        fixedChange("variants.discriminator.default-removed", at, "new", `${label}: no longer chosen when \`${d.property}\` is omitted`),
      );
    } else if (!d?.serverDefault && e?.serverDefault) {
      out.push(fixedChange("variants.discriminator.default-added", at, "new", `${label}: now chosen when \`${e.property}\` is omitted`));
    }
    // The discriminator property's allowed value is the discriminator, compared above.
    const skip = new Set([d?.property, e?.property].filter((x): x is string => x !== undefined));
    const walk = { scope: "variants" as const, old: named.old, new: named.new, out, label: `${label} request`, skip };
    compareSchemas(
      walk,
      { kind: "ref", name: v.requestSchema },
      { kind: "ref", name: w.requestSchema },
      schemaPointer(v.requestSchema),
      schemaPointer(w.requestSchema),
    );
    if (v.payload && w.payload) {
      const pay = { scope: "variants.payload" as const, old: named.old, new: named.new, out, label: `${label} payload` };
      compareSchemas(pay, v.payload, w.payload, variantPointer(o, p, v, "payload"), variantPointer(n, q, w, "payload"));
    }
  }
}

function comparePricing(o: Operation, n: Operation, out: Change[]): void {
  const [a, b] = [o.variants!.pricing, n.variants!.pricing];
  const at = (...tokens: string[]) => extPointer(n, "pricing", ...tokens);
  const price = (rule: Parameters<typeof fixedChange>[0], pointer: string, text: string) =>
    out.push(fixedChange(rule, pointer, "new", `pricing: ${text}`));
  if (a?.minimumCharge !== b?.minimumCharge)
    price(
      "variants.price.minimum-charge-changed",
      at("minimumCharge"),
      `minimum charge ${a?.minimumCharge ?? "none"} -> ${b?.minimumCharge ?? "none"}`,
    );
  if (a?.defaultLane !== b?.defaultLane)
    price(
      "variants.price.default-lane-changed",
      at("defaultLane"),
      `default lane ${a?.defaultLane ?? "none"} -> ${b?.defaultLane ?? "none"}`,
    );
  if (a?.laneField !== b?.laneField)
    price("variants.price.lane-field-changed", at("laneField"), `lane field ${a?.laneField ?? "none"} -> ${b?.laneField ?? "none"}`);
  const [x, y] = [a?.laneMultipliers ?? {}, b?.laneMultipliers ?? {}];
  for (const lane of Object.keys(x)) {
    if (!(lane in y))
      out.push(
        fixedChange(
          "variants.price.lane-removed",
          extPointer(o, "pricing", "laneMultipliers", lane),
          "old",
          `pricing: lane ${lane} is no longer priced`,
        ),
      );
  }
  for (const [lane, m] of Object.entries(y)) {
    if (!(lane in x)) price("variants.price.lane-added", at("laneMultipliers", lane), `lane ${lane} is priced x${m}`);
    else if (x[lane] !== m)
      price("variants.price.lane-multiplier-changed", at("laneMultipliers", lane), `lane ${lane} multiplier x${x[lane]} -> x${m}`);
  }
}
