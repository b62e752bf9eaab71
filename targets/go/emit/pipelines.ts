/**
 * Job submission through pipelines: per pipeline a sealed interface, one struct per variant that writes its own
 * discriminator and checks its "exactly one of" groups before anything is sent, and the Submit<Pipeline> and
 * Start<Pipeline> methods of the Client.
 */
import type { Operation, Pipeline, Variant } from "../../../generator/ir/types.js";
import { goDoc, goString } from "./escape.js";
import type { FieldInfo, GoType, GoTypes } from "./go-type.js";
import { goName, NameScope } from "./names.js";

/** The Go names a caller of one pipeline uses: its methods and the struct of each variant. */
export interface GoPipelinePlan {
  readonly slug: string;
  readonly submit: string;
  readonly start: string;
  /** Wait<Pipeline>, when the pipeline's payload is typed (else the runtime's Wait serves). */
  readonly wait?: string;
  readonly variants: readonly { readonly name: string; readonly struct: string }[];
}

/** The Go code of every pipeline of the submission operation; `plans` receives the names of each. */
export function pipelinesCode(op: Operation, types: GoTypes, scope: NameScope, methods: NameScope, plans: GoPipelinePlan[] = []): string[] {
  return (op.variants?.pipelines ?? []).map((p) => pipelineCode(p, types, scope, methods, plans));
}

function pipelineCode(p: Pipeline, types: GoTypes, scope: NameScope, methods: NameScope, plans: GoPipelinePlan[]): string {
  const base = goName(p.identifier, "Pipeline");
  const iface = scope.claim(`${base}Request`);
  const marker = `is${iface}`;
  const variants = p.variants.map((v) => ({ v, name: scope.claim(goName(v.identifier, `${base}Variant`)) }));
  const out: string[] = [];
  out.push(
    `${goDoc(
      iface,
      `is the body of a job of the pipeline ${goString(p.slug)}: one of ${variants.map((x) => x.name).join(", ")}.`,
      [p.summary, p.description].filter(Boolean).join("\n\n"),
    )}\ntype ${iface} interface {\n\t${marker}()\n\tformBody() (map[string]any, error)\n}`,
  );
  // Each variant's payload type, declared once; the result of Submit<Pipeline> holds the payload decoded by it.
  const payloadTypes = variants.map(({ v, name }) => (v.payload ? types.expr(v.payload, `${name}Payload`, "string") : undefined));
  const distinct = [...new Map(payloadTypes.flatMap((t) => (t ? [[t.code, t] as const] : []))).values()];
  const result = distinct.length === 0 ? undefined : payloadResult(base, p, distinct, scope);
  if (result !== undefined) {
    out[0] = out[0]!.replace(
      "\tformBody() (map[string]any, error)\n}",
      `\tformBody() (map[string]any, error)\n\tdecodePayload(data json.RawMessage) (${result.payload}, error)\n}`,
    );
  }
  variants.forEach(({ v, name }, i) => {
    out.push(variantCode(v, name, marker, types));
    if (result !== undefined) {
      out.push(
        `// decodePayload decodes the payload of a job of this variant.\nfunc (${name}) decodePayload(data json.RawMessage) (${result.payload}, error) {\n${result.decode(payloadTypes[i])}\n}`,
      );
    }
  });
  if (result !== undefined) out.push(result.code);
  const submit = methods.claim(`Submit${base}`);
  const start = methods.claim(`Start${base}`);
  const payloads = variants.map(({ name }, i) => `${name}: ${payloadTypes[i]?.code ?? "json.RawMessage"}`);
  const returns = result === undefined ? "*sdkruntime.JobResult" : `*${result.name}`;
  const tail =
    result === undefined
      ? `\treturn c.Submit(ctx, ${goString(p.slug)}, form, opts...)`
      : `\tres, err := c.Submit(ctx, ${goString(p.slug)}, form, opts...)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tpayload, err := body.decodePayload(res.Data)\n\treturn &${result.name}{JobResult: *res, Payload: payload}, err`;
  const lead = `submits a job of the pipeline ${goString(p.slug)} and waits for its result: held by the service, then polled. The body's "exactly one of" groups are checked before anything is sent; the submission is never sent twice.`;
  const how =
    result === undefined
      ? "Decode the payload with Decode, by variant:"
      : "The result's Payload is the payload decoded by the variant sent; one that does not decode is an error returned with the result. The payload by variant:";
  out.push(
    `${goDoc(submit, `${lead} ${how}`, `${payloads.join("; ")}.`)}
func (c *Client) ${submit}(ctx context.Context, body ${iface}, opts ...CallOption) (${returns}, error) {
\tform, err := sdkruntime.JobForm(body, func() (map[string]any, error) { return body.formBody() })
\tif err != nil {
\t\treturn nil, err
\t}
${tail}
}`,
  );
  const pipelinePlan = { slug: p.slug, submit, start, variants: variants.map(({ v, name }) => ({ name: v.name, struct: name })) };
  if (result === undefined) {
    plans.push(pipelinePlan);
    out.push(
      `${goDoc(start, `submits a job of the pipeline ${goString(p.slug)} without waiting for it and returns its handle; wait with the handle's Wait or the client's Wait.`, undefined)}
func (c *Client) ${start}(ctx context.Context, body ${iface}, opts ...CallOption) (*sdkruntime.JobHandle, error) {
\tform, err := sdkruntime.JobForm(body, func() (map[string]any, error) { return body.formBody() })
\tif err != nil {
\t\treturn nil, err
\t}
\treturn c.Start(ctx, ${goString(p.slug)}, form, opts...)
}`,
    );
  } else {
    const wait = methods.claim(`Wait${base}`);
    plans.push({ ...pipelinePlan, wait });
    out.push(typedJobCode(p, { iface, submit, start, result: result.name, job: scope.claim(`${base}Job`), wait }));
  }
  return out.join("\n\n");
}

/**
 * Start<Pipeline>, the typed handle it returns and Wait<Pipeline>: as Submit<Pipeline>, their Wait returns the result
 * with the payload decoded by the variant submitted; the runtime's untyped Start and Wait stay for dynamic use.
 */
function typedJobCode(
  p: Pipeline,
  names: { iface: string; submit: string; start: string; result: string; job: string; wait: string },
): string {
  const { iface, submit, start, result, job, wait } = names;
  const decoded = (variant: string) =>
    `\tif err != nil {\n\t\treturn nil, err\n\t}\n\tpayload, err := ${variant}.decodePayload(res.Data)\n\treturn &${result}{JobResult: *res, Payload: payload}, err`;
  return [
    `${goDoc(job, `is a job of the pipeline ${goString(p.slug)} that was started and not waited for: the runtime's handle (JobID, Pipeline, PollPath, Meta) and the variant submitted, by which its Wait decodes the payload.`, undefined)}
type ${job} struct {
\t*sdkruntime.JobHandle
\tvariant ${iface}
}`,
    `${goDoc("Wait", `waits for the job, sending the first poll at once, and returns its result with the payload decoded by the variant submitted, as ${submit} does; one that does not decode is an error returned with the result. JobHandle.Wait is the untyped wait.`, undefined)}
func (j *${job}) Wait(ctx context.Context, opts ...CallOption) (*${result}, error) {
\tres, err := j.JobHandle.Wait(ctx, opts...)
${decoded("j.variant")}
}`,
    `${goDoc(start, `submits a job of the pipeline ${goString(p.slug)} without waiting for it and returns its handle; the handle's Wait, or ${wait} from another process, waits for it with the payload typed.`, undefined)}
func (c *Client) ${start}(ctx context.Context, body ${iface}, opts ...CallOption) (*${job}, error) {
\tform, err := sdkruntime.JobForm(body, func() (map[string]any, error) { return body.formBody() })
\tif err != nil {
\t\treturn nil, err
\t}
\thandle, err := c.Start(ctx, ${goString(p.slug)}, form, opts...)
\tif err != nil {
\t\treturn nil, err
\t}
\treturn &${job}{JobHandle: handle, variant: body}, nil
}`,
    `${goDoc(wait, `waits for a job of the pipeline ${goString(p.slug)} by id, for example one started by another process, and returns its result with the payload decoded by variant: a value of the variant submitted, whose fields are not used (its zero value will do). The first poll is sent at once; the client's Wait is the untyped wait.`, undefined)}
func (c *Client) ${wait}(ctx context.Context, jobID string, variant ${iface}, opts ...CallOption) (*${result}, error) {
\tif err := sdkruntime.JobVariant(variant, ${goString(wait)}); err != nil {
\t\treturn nil, err
\t}
\tres, err := c.Wait(ctx, jobID, opts...)
${decoded("variant")}
}`,
  ].join("\n\n");
}

function variantCode(v: Variant, name: string, marker: string, types: GoTypes): string {
  const d = v.discriminator;
  const lead = d
    ? `is the variant ${goString(v.name)} (${goString(d.property)} ${goString(d.value)}${d.serverDefault ? ", the service's default" : ""}), which it writes itself.`
    : `is the variant ${goString(v.name)}.`;
  const open = v.open ? " Its parameters are not shown: set them in Extra." : "";
  const fields = types.struct(name, v.request, {
    doc: goDoc(name, `${lead}${open}`, [v.summary, v.description].filter(Boolean).join("\n\n")),
    ...(d && { skip: d.property, fixed: [d.property, d.value] as const }),
    jsonText: "structured",
  });
  const checks = v.exactlyOne.map(
    (group) =>
      `\tif err := sdkruntime.ExactlyOne(${goString(group.join(", "))}, ${group.map((m) => presence(m, fields)).join(", ")}); err != nil {\n\t\treturn nil, err\n\t}`,
  );
  const files = fields
    .filter((f) => f.file)
    .map((f) => `\tsdkruntime.${f.type.code.startsWith("[]") ? "AddFiles" : "AddFile"}(form, ${goString(f.property)}, v.${f.field})`);
  return [
    `func (${name}) ${marker}() {}`,
    `// formBody checks the variant and encodes it as the fields of a form.\nfunc (v ${name}) formBody() (map[string]any, error) {\n${[
      ...checks,
      "\tform, err := sdkruntime.FormOf(v)",
      "\tif err != nil {",
      "\t\treturn nil, err",
      "\t}",
      ...files,
      "\treturn form, nil",
    ].join("\n")}\n}`,
  ].join("\n\n");
}

/** A Go expression that is true when a member of an "exactly one of" group is set. */
function presence(property: string, fields: readonly FieldInfo[]): string {
  const f = fields.find((x) => x.property === property);
  if (f === undefined) return `v.Extra[${goString(property)}] != nil`;
  if (f.type.kind === "nullable") return `v.${f.field}.IsSet()`;
  return f.type.kind === "scalar" || f.type.kind === "struct" ? "true" : `v.${f.field} != nil`;
}

/**
 * The result type of Submit<Pipeline>: sdkruntime.JobResult with the payload decoded, a pointer to the one payload
 * type the variants share, or a struct with one field per payload type of which the variant sent sets one.
 */
function payloadResult(
  base: string,
  p: Pipeline,
  distinct: readonly GoType[],
  scope: NameScope,
): { name: string; payload: string; code: string; decode: (t: GoType | undefined) => string } {
  const name = scope.claim(`${base}Result`);
  const ref = (t: GoType): string => (t.kind === "nilable" ? t.code : `*${t.code}`);
  const decodeInto = (t: GoType): string =>
    `sdkruntime.${t.kind === "nilable" ? "DecodeOptionalValue" : "DecodeOptional"}[${t.code}](data, ${goString(t.code)})`;
  const lead = `is the result of a job of the pipeline ${goString(p.slug)}: sdkruntime.JobResult (JobID, Data, Meta, SubmitMeta, Polls) and its payload decoded.`;
  if (distinct.length === 1) {
    const t = distinct[0]!;
    return {
      name,
      payload: ref(t),
      code: `${goDoc(name, lead, undefined)}\ntype ${name} struct {\n\tsdkruntime.JobResult\n\t// Payload is the payload decoded; nil when the answer carried none.\n\tPayload ${ref(t)}\n}`,
      decode: (v) => (v === undefined ? "\treturn nil, nil" : `\treturn ${decodeInto(v)}`),
    };
  }
  const union = scope.claim(`${base}ResultPayload`);
  const fieldScope = new NameScope(["AsAny"]);
  const fields = distinct.map((t) => ({ t, field: fieldScope.claim(`Of${goName(t.code, "Payload")}`) }));
  const fieldOf = new Map(fields.map((f) => [f.t.code, f.field]));
  const asAny = fields.map(({ t, field }) => `\tcase u.${field} != nil:\n\t\treturn ${t.kind === "nilable" ? "" : "*"}u.${field}`);
  const listed = distinct.map((t) => t.code).join(", ");
  const code = [
    `${goDoc(name, lead, undefined)}\ntype ${name} struct {\n\tsdkruntime.JobResult\n\t// Payload is the payload decoded, in the field of the variant's payload type.\n\tPayload ${union}\n}`,
    `${goDoc(union, `is the payload of a job of the pipeline ${goString(p.slug)}: the variant sent sets the field of its payload type (${listed}); none is set when the answer carried none.`, undefined)}\ntype ${union} struct {\n${fields.map(({ t, field }) => `\t// ${field} is the payload of the variants whose payload is a ${t.code}.\n\t${field} ${ref(t)}`).join("\n")}\n}`,
    `${goDoc("AsAny", `returns the payload that is set (${listed}), nil when none is.`, undefined)}\nfunc (u ${union}) AsAny() any {\n\tswitch {\n${asAny.join("\n")}\n\t}\n\treturn nil\n}`,
  ].join("\n\n");
  return {
    name,
    payload: union,
    code,
    decode: (v) =>
      v === undefined
        ? `\treturn ${union}{}, nil`
        : `\tpayload, err := ${decodeInto(v)}\n\treturn ${union}{${fieldOf.get(v.code)}: payload}, err`,
  };
}
