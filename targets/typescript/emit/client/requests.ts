import type * as TS from "typescript";
import type { IR, Pipeline, Variant } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsDocCode, tsDocText } from "../escape.js";
import { ts, tsFile } from "../ts-file.js";
import { docLinesOf, type TypeScope } from "../ts-type.js";
import {
  factory as f,
  intersectionOf,
  literalType,
  type NodeProperty,
  neverType,
  printNode,
  recordOf,
  schemaType,
  typeAlias,
  typeLiteral,
  typeParameter,
  typeRef,
  unionOf,
  unknownType,
  withDoc,
} from "../ts-nodes.js";
import { tsNames } from "../names.js";
import { scopes, typeImports, variantOperations } from "./scope.js";

/**
 * requests.ts: one exact request type per variant, a discriminated union per pipeline, and the payload
 * type each variant's result carries. Exactness comes from `?: never` on what other variants take, so a
 * field of another variant, or both members of an "exactly one of" group, do not compile. Every declaration is a
 * syntax tree printed by TypeScript's printer (ts-nodes.ts).
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
            file.addPrinted(
              typeAlias(commonName, typeLiteral(shared.properties, false, 0), [
                `The fields every variant of \`${tsDocCode(op.id)}\` takes alike, declared once; a variant that declares one`,
                "otherwise leaves it out here.",
              ]),
            );
          for (const pipeline of op.variants.pipelines) {
            for (const variant of pipeline.variants) {
              file.addPrinted(
                typeAlias(
                  names.variantRequest(pipeline, variant),
                  variantType(variant, pipeline, request, commonName === undefined ? undefined : { name: commonName, shared }),
                  docText(variant, pipeline),
                ),
              );
            }
            const pipelineRequest = names.pipelineRequest(pipeline);
            // A pipeline whose one variant is its body has no union of its own.
            if (!pipeline.variants.some((v) => names.variantRequest(pipeline, v) === pipelineRequest))
              file.addPrinted(
                typeAlias(pipelineRequest, unionOf(pipeline.variants.map((v) => typeRef(names.variantRequest(pipeline, v)))), [
                  `Body of \`${tsDocCode(pipeline.slug)}\`: one of its variants, told apart by ${discriminatorText(pipeline)}.`,
                ]),
              );
            // B extends V1 ? P1 : B extends V2 ? P2 : ... : never
            const payload = pipeline.variants.reduceRight<TS.TypeNode>(
              (rest, v) =>
                f.createConditionalTypeNode(
                  typeRef("B"),
                  typeRef(names.variantRequest(pipeline, v)),
                  v.payload ? schemaType(v.payload, response, 0) : recordOf(unknownType()),
                  rest,
                ),
              neverType(),
            );
            file.addPrinted(
              typeAlias(
                names.payload(pipeline),
                payload,
                [
                  `The finished payload of a \`${tsDocCode(pipeline.slug)}\` job for body \`B\`. After polling it is read from`,
                  `\`${tsDocCode(pipeline.payloadAfterPolling)}\`; the runtime normalises it as \`result ?? job_result\`.`,
                ],
                [typeParameter("B", typeRef(pipelineRequest))],
              ),
            );
          }
          const jobRequests = f.createInterfaceDeclaration(
            [f.createModifier(ts.SyntaxKind.ExportKeyword)],
            "JobRequests",
            undefined,
            undefined,
            op.variants.pipelines.map((p) =>
              f.createPropertySignature(undefined, f.createStringLiteral(p.slug), undefined, typeRef(names.pipelineRequest(p))),
            ),
          );
          file.addPrinted(printNode(withDoc(jobRequests, ["The request body of every pipeline, by slug."])));
          file.addPrinted(jobPayloadOf(op.variants.pipelines, names));
        }
        file.addPrinted(unknownFields());
        file.addPrinted(exactBody());
      },
      () => typeImports(uses, kit.runtimeModule),
    ),
  ];
}

/** `Exclude<keyof B, U extends unknown ? (B extends U ? keyof U : never) : never>` */
function unknownFields(): string {
  const keyOf = (t: TS.TypeNode) => f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, t);
  const declared = f.createConditionalTypeNode(
    typeRef("U"),
    unknownType(),
    f.createParenthesizedType(f.createConditionalTypeNode(typeRef("B"), typeRef("U"), keyOf(typeRef("U")), neverType())),
    neverType(),
  );
  return typeAlias(
    "UnknownFields",
    typeRef("Exclude", [keyOf(typeRef("B")), declared]),
    ["The keys of `B` that the member of `U` it matches does not declare: a misspelt field."],
    [typeParameter("B"), typeParameter("U")],
  );
}

/**
 * `P extends "a" ? (B extends ARequest ? APayloadOf<B> : never) : ... : never`: the payload of a job of pipeline `P` for
 * body `B`, by default any body of the pipeline (then the union of its variants' payloads).
 */
function jobPayloadOf(pipelines: readonly Pipeline[], names: ReturnType<typeof tsNames>): string {
  const type = pipelines.reduceRight<TS.TypeNode>(
    (rest, p) =>
      f.createConditionalTypeNode(
        typeRef("P"),
        literalType(p.slug),
        f.createParenthesizedType(
          f.createConditionalTypeNode(
            typeRef("B"),
            typeRef(names.pipelineRequest(p)),
            typeRef(names.payload(p), [typeRef("B")]),
            neverType(),
          ),
        ),
        rest,
      ),
    neverType(),
  );
  const jobRequests = typeRef("JobRequests");
  return typeAlias(
    "JobPayloadOf",
    type,
    [
      "The finished payload of a job of pipeline `P` for body `B`; without `B`, of any body of the pipeline (the union of",
      "its variants' payloads), as `waitJob` with `{ pipeline }` returns it.",
    ],
    [
      typeParameter("P", f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, jobRequests)),
      f.createTypeParameterDeclaration(undefined, "B", undefined, f.createIndexedAccessTypeNode(jobRequests, typeRef("P"))),
    ],
  );
}

/** `[UnknownFields<B, U>] extends [never] ? B : U` */
function exactBody(): string {
  const tuple = (members: readonly TS.TypeNode[]) => ts.setEmitFlags(f.createTupleTypeNode(members), ts.EmitFlags.SingleLine);
  const type = f.createConditionalTypeNode(
    tuple([typeRef("UnknownFields", [typeRef("B"), typeRef("U")])]),
    tuple([neverType()]),
    typeRef("B"),
    typeRef("U"),
  );
  return typeAlias(
    "ExactBody",
    type,
    [
      "The type a job submission's body is checked against: the body itself, or, when it has a field its variant does",
      "not declare, the pipeline's union, whose member the discriminator picks reports the misspelt field by name.",
    ],
    [typeParameter("B"), typeParameter("U")],
  );
}

function discriminatorText(p: Pipeline): string {
  return p.discriminators.length === 0 ? "nothing (it has one variant)" : p.discriminators.map((d) => `\`${tsDocCode(d)}\``).join(" or ");
}

function docText(v: Variant, p: Pipeline): string[] {
  const only = p.variants.length === 1 && v.discriminator === undefined;
  const lines = only
    ? [`Body of \`${p.slug}\`${p.summary ? `: ${p.summary}` : "."}`, ...(v.summary ? ["", v.summary] : [])]
    : [v.summary ?? `Variant ${v.name} of ${p.slug}.`];
  if (v.description) lines.push("", v.description);
  if (v.discriminator) {
    lines.push(
      "",
      `Chosen by \`${v.discriminator.property}: ${JSON.stringify(v.discriminator.value)}\`${v.discriminator.serverDefault ? " (the server's default, still required here: several variants claim a default)" : ""}.`,
    );
  }
  for (const group of v.exactlyOne) lines.push(`Exactly one of ${group.map((f) => `\`${f}\``).join(", ")}.`);
  if (v.open) lines.push("", "Its parameters are not shown in the description, so further fields are accepted as they are.");
  return tsDocText(lines.join("\n")).split("\n");
}

/** The properties a variant declares outside its "exactly one of" groups, its discriminator as its literal type. */
function ownProperties(v: Variant, scope: TypeScope): NodeProperty[] {
  const grouped = new Set(v.exactlyOne.flat());
  return v.request.properties
    .filter((prop) => !grouped.has(prop.name))
    .map((prop) =>
      prop.name === v.discriminator?.property
        ? { name: prop.name, optional: false, type: literalType(v.discriminator.value), doc: docLinesOf(prop.schema, scope) }
        : { name: prop.name, optional: !prop.required, type: schemaType(prop.schema, scope, 1), doc: docLinesOf(prop.schema, scope) },
    );
}

/** The fields every variant shares, and which variants declare one of them otherwise (and so take the rest only). */
interface CommonFields {
  readonly properties: readonly NodeProperty[];
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
  const form = (p: NodeProperty) => JSON.stringify([p.optional, printNode(p.type), p.doc]);
  const first = variants[0];
  if (variants.length < 2 || first === undefined) return { properties: [], otherwise: new Map() };
  const properties: NodeProperty[] = [];
  const otherwise = new Map<Variant, string[]>();
  for (const name of first.request.properties.map((p) => p.name)) {
    if (!variants.every((v) => v.request.properties.some((p) => p.name === name))) continue;
    // The forms of the field by variant (undefined where it is in a group), and the most frequent one, first on a tie.
    const forms = variants.map((v) => own.get(v)!.find((p) => p.name === name));
    const counts = new Map<string, number>();
    for (const f of forms) if (f !== undefined) counts.set(form(f), (counts.get(form(f)) ?? 0) + 1);
    let best: NodeProperty | undefined;
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

function variantType(v: Variant, p: Pipeline, scope: TypeScope, common?: { name: string; shared: CommonFields }): TS.TypeNode {
  const own = new Set(v.request.properties.map((x) => x.name));
  const otherwise = common?.shared.otherwise.get(v) ?? [];
  const inCommon = new Set(common?.shared.properties.map((x) => x.name).filter((n) => !otherwise.includes(n)));
  const props: NodeProperty[] = ownProperties(v, scope).filter((prop) => !inCommon.has(prop.name));
  // What selects or belongs to another variant of this pipeline must be absent here.
  const foreign = new Set<string>(p.discriminators.filter((d) => d !== v.discriminator?.property && !own.has(d)));
  if (!v.open) {
    for (const sibling of p.variants) for (const prop of sibling.request.properties) if (!own.has(prop.name)) foreign.add(prop.name);
  }
  for (const name of [...foreign].sort()) props.push({ name, optional: true, type: neverType(), doc: [] });
  const shared =
    common === undefined
      ? []
      : [
          otherwise.length === 0
            ? typeRef(common.name)
            : typeRef("Omit", [typeRef(common.name), unionOf(otherwise.map((n) => literalType(n)))]),
        ];
  // With the shared fields in front, a variant that adds nothing closed adds no empty object either.
  const base = props.length === 0 && !v.open && shared.length > 0 ? [] : [typeLiteral(props, v.open, 0)];
  const groups = v.exactlyOne.map((group) =>
    unionOf(
      group.map((chosen) =>
        typeLiteral(
          group.map((name) => {
            const prop = v.request.properties.find((x) => x.name === name)!;
            return name === chosen
              ? { name, optional: false, type: schemaType(prop.schema, scope, 1), doc: docLinesOf(prop.schema, scope) }
              : { name, optional: true, type: neverType(), doc: [] };
          }),
          false,
          0,
        ),
      ),
    ),
  );
  return intersectionOf([...shared, ...base, ...groups]);
}
