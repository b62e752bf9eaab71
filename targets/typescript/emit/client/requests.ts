import type { IR, Pipeline, Variant } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsDocCode, tsDocText, tsLiteralType, tsString } from "../escape.js";
import { tsFile } from "../ts-file.js";
import { docOf, objectLiteral, type PrintedProperty, printType, type TypeScope } from "../ts-type.js";
import { tsNames } from "../names.js";
import { scopes, typeImports, variantOperations } from "./scope.js";

/**
 * requests.ts: one exact request type per variant, a discriminated union per pipeline, and the payload
 * type each variant's result carries. Exactness comes from `?: never` on what other variants take, so a
 * field of another variant, or both members of an "exactly one of" group, do not compile.
 */
export async function emitRequests(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const { request, response, uses } = scopes(ir);
  const names = tsNames(ir);
  return [
    tsFile(
      ir,
      kit,
      "requests.ts",
      (file) => {
        for (const op of variantOperations(ir)) {
          const shared = commonFields(op.variants.pipelines, request);
          const commonName = shared.properties.length > 0 ? names.commonFields(op) : undefined;
          if (commonName !== undefined)
            file.addTypeAlias({
              isExported: true,
              name: commonName,
              docs: [
                `The fields every variant of \`${tsDocCode(op.id)}\` takes alike, declared once; a variant that declares one otherwise leaves it out here.`,
              ],
              type: objectLiteral(shared.properties, false),
            });
          for (const pipeline of op.variants.pipelines) {
            for (const variant of pipeline.variants) {
              file.addTypeAlias({
                isExported: true,
                name: names.variantRequest(pipeline, variant),
                docs: [docText(variant, pipeline)],
                type: variantType(variant, pipeline, request, commonName === undefined ? undefined : { name: commonName, shared }),
              });
            }
            file.addTypeAlias({
              isExported: true,
              name: names.pipelineRequest(pipeline),
              docs: [`Body of \`${tsDocCode(pipeline.slug)}\`: one of its variants, told apart by ${discriminatorText(pipeline)}.`],
              type: pipeline.variants.map((v) => names.variantRequest(pipeline, v)).join(" | "),
            });
            file.addTypeAlias({
              isExported: true,
              name: names.payload(pipeline),
              typeParameters: [{ name: "B", constraint: names.pipelineRequest(pipeline) }],
              docs: [
                `The finished payload of a \`${tsDocCode(pipeline.slug)}\` job for body \`B\`. After polling it is read from \`${pipeline.payloadAfterPolling}\`; the runtime normalises it as \`result ?? job_result\`.`,
              ],
              type: `${pipeline.variants
                .map(
                  (v) =>
                    `B extends ${names.variantRequest(pipeline, v)} ? ${v.payload ? printType(v.payload, response) : "Record<string, unknown>"} : `,
                )
                .join("")}never`,
            });
          }
          file.addInterface({
            isExported: true,
            name: "JobRequests",
            docs: ["The request body of every pipeline, by slug."],
            properties: op.variants.pipelines.map((p) => ({ name: tsString(p.slug), type: names.pipelineRequest(p) })),
          });
        }
        file.addTypeAlias({
          isExported: true,
          name: "UnknownFields",
          typeParameters: ["B", "U"],
          docs: ["The keys of `B` that the member of `U` it matches does not declare: a misspelt field."],
          type: "Exclude<keyof B, U extends unknown ? (B extends U ? keyof U : never) : never>",
        });
        file.addTypeAlias({
          isExported: true,
          name: "OptionsUnlessUnknown",
          typeParameters: ["B", "U", "O"],
          docs: [
            "The trailing parameters of a job submission: the options, or, when the body has a field its variant does not declare, a required marker naming it, so that the call does not compile.",
          ],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a TypeScript template literal type
          type: "[UnknownFields<B, U>] extends [never] ? [options?: O] : [options: O | undefined, unknownField: `unknown field: ${Extract<UnknownFields<B, U>, string>}`]",
        });
      },
      () => typeImports(uses, kit.runtimeModule),
    ),
  ];
}

function discriminatorText(p: Pipeline): string {
  return p.discriminators.length === 0 ? "nothing (it has one variant)" : p.discriminators.map((d) => `\`${tsDocCode(d)}\``).join(" or ");
}

function docText(v: Variant, p: Pipeline): string {
  const lines = [v.summary ?? `Variant ${v.name} of ${p.slug}.`];
  if (v.description) lines.push("", v.description);
  if (v.discriminator) {
    lines.push(
      "",
      `Chosen by \`${v.discriminator.property}: ${JSON.stringify(v.discriminator.value)}\`${v.discriminator.serverDefault ? " (the server's default, still required here: several variants claim a default)" : ""}.`,
    );
  }
  for (const group of v.exactlyOne) lines.push(`Exactly one of ${group.map((f) => `\`${f}\``).join(", ")}.`);
  if (v.open) lines.push("", "Its parameters are not shown in the description, so further fields are accepted as they are.");
  return tsDocText(lines.join("\n"));
}

/** The properties a variant declares outside its "exactly one of" groups, its discriminator as its literal type. */
function ownProperties(v: Variant, scope: TypeScope): PrintedProperty[] {
  const grouped = new Set(v.exactlyOne.flat());
  return v.request.properties
    .filter((prop) => !grouped.has(prop.name))
    .map((prop) =>
      prop.name === v.discriminator?.property
        ? { name: prop.name, optional: false, type: tsLiteralType(v.discriminator.value), doc: docOf(prop.schema, scope) }
        : { name: prop.name, optional: !prop.required, type: printType(prop.schema, scope), doc: docOf(prop.schema, scope) },
    );
}

/** The fields every variant shares, and which variants declare one of them otherwise (and so take the rest only). */
interface CommonFields {
  readonly properties: readonly PrintedProperty[];
  /** By variant: the shared names it declares differently, left out of the shared type where it uses it. */
  readonly otherwise: ReadonlyMap<Variant, readonly string[]>;
}

/**
 * The fields shared by the variants of every pipeline: a field every variant has, in the form (type, optional, doc)
 * that most variants give it, when at least two do. A variant that gives it another form, or puts it in an "exactly
 * one of" group, declares it itself and takes the shared type without it, so every variant stays as exact as before.
 */
function commonFields(pipelines: readonly Pipeline[], scope: TypeScope): CommonFields {
  const variants = pipelines.flatMap((p) => p.variants);
  const own = new Map(variants.map((v) => [v, ownProperties(v, scope)] as const));
  const form = (p: PrintedProperty) => JSON.stringify([p.optional, p.type, p.doc]);
  const first = variants[0];
  if (variants.length < 2 || first === undefined) return { properties: [], otherwise: new Map() };
  const properties: PrintedProperty[] = [];
  const otherwise = new Map<Variant, string[]>();
  for (const name of first.request.properties.map((p) => p.name)) {
    if (!variants.every((v) => v.request.properties.some((p) => p.name === name))) continue;
    // The forms of the field by variant (undefined where it is in a group), and the most frequent one, first on a tie.
    const forms = variants.map((v) => own.get(v)!.find((p) => p.name === name));
    const counts = new Map<string, number>();
    for (const f of forms) if (f !== undefined) counts.set(form(f), (counts.get(form(f)) ?? 0) + 1);
    let best: PrintedProperty | undefined;
    for (const f of forms) {
      if (f !== undefined && (best === undefined || counts.get(form(f))! > counts.get(form(best))!)) best = f;
    }
    if (best === undefined || counts.get(form(best))! < 2) continue;
    properties.push(best);
    variants.forEach((v, i) => {
      const f = forms[i];
      if (f === undefined || form(f) !== form(best)) otherwise.set(v, [...(otherwise.get(v) ?? []), name]);
    });
  }
  return { properties, otherwise };
}

function variantType(v: Variant, p: Pipeline, scope: TypeScope, common?: { name: string; shared: CommonFields }): string {
  const own = new Set(v.request.properties.map((x) => x.name));
  const otherwise = common?.shared.otherwise.get(v) ?? [];
  const inCommon = new Set(common?.shared.properties.map((x) => x.name).filter((n) => !otherwise.includes(n)));
  const printed: PrintedProperty[] = ownProperties(v, scope).filter((prop) => !inCommon.has(prop.name));
  // What selects or belongs to another variant of this pipeline must be absent here.
  const foreign = new Set<string>(p.discriminators.filter((d) => d !== v.discriminator?.property && !own.has(d)));
  if (!v.open) {
    for (const sibling of p.variants) for (const prop of sibling.request.properties) if (!own.has(prop.name)) foreign.add(prop.name);
  }
  for (const name of [...foreign].sort()) printed.push({ name, optional: true, type: "never", doc: "" });
  const shared =
    common === undefined ? [] : [otherwise.length === 0 ? common.name : `Omit<${common.name}, ${otherwise.map(tsString).join(" | ")}>`];
  // With the shared fields in front, a variant that adds nothing closed adds no empty object either.
  const base = printed.length === 0 && !v.open && shared.length > 0 ? [] : [objectLiteral(printed, v.open)];
  const groups = v.exactlyOne.map((group) => {
    const members = group.map((chosen) => {
      const props = group.map((name) => {
        const prop = v.request.properties.find((x) => x.name === name)!;
        return name === chosen
          ? { name, optional: false, type: printType(prop.schema, scope), doc: docOf(prop.schema, scope) }
          : { name, optional: true, type: "never", doc: "" };
      });
      return objectLiteral(props, false);
    });
    return `(${members.join(" | ")})`;
  });
  return [...shared, ...base, ...groups].join(" & ");
}
