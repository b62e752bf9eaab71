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
          for (const pipeline of op.variants.pipelines) {
            for (const variant of pipeline.variants) {
              file.addTypeAlias({
                isExported: true,
                name: names.variantRequest(pipeline, variant),
                docs: [docText(variant, pipeline)],
                type: variantType(variant, pipeline, request),
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

function variantType(v: Variant, p: Pipeline, scope: TypeScope): string {
  const grouped = new Set(v.exactlyOne.flat());
  const own = new Set(v.request.properties.map((x) => x.name));
  const printed: PrintedProperty[] = v.request.properties
    .filter((prop) => !grouped.has(prop.name))
    .map((prop) =>
      prop.name === v.discriminator?.property
        ? { name: prop.name, optional: false, type: tsLiteralType(v.discriminator.value), doc: docOf(prop.schema, scope) }
        : { name: prop.name, optional: !prop.required, type: printType(prop.schema, scope), doc: docOf(prop.schema, scope) },
    );
  // What selects or belongs to another variant of this pipeline must be absent here.
  const foreign = new Set<string>(p.discriminators.filter((d) => d !== v.discriminator?.property && !own.has(d)));
  if (!v.open) {
    for (const sibling of p.variants) for (const prop of sibling.request.properties) if (!own.has(prop.name)) foreign.add(prop.name);
  }
  for (const name of [...foreign].sort()) printed.push({ name, optional: true, type: "never", doc: "" });
  const base = objectLiteral(printed, v.open);
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
  return [base, ...groups].join(" & ");
}
