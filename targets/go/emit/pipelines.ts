/**
 * Job submission through pipelines: per pipeline a sealed interface, one struct per variant that writes its own
 * discriminator and checks its "exactly one of" groups before anything is sent, and the Submit<Pipeline> and
 * Start<Pipeline> methods of the Client.
 */
import type { Operation, Pipeline, Variant } from "../../../generator/ir/types.js";
import { goDoc, goString } from "./escape.js";
import type { FieldInfo, GoTypes } from "./go-type.js";
import { goName, type NameScope } from "./names.js";

/** The Go code of every pipeline of the submission operation. */
export function pipelinesCode(op: Operation, types: GoTypes, scope: NameScope, methods: NameScope): string[] {
  return (op.variants?.pipelines ?? []).map((p) => pipelineCode(p, types, scope, methods));
}

function pipelineCode(p: Pipeline, types: GoTypes, scope: NameScope, methods: NameScope): string {
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
  for (const { v, name } of variants) out.push(variantCode(v, name, marker, types));
  const submit = methods.claim(`Submit${base}`);
  const start = methods.claim(`Start${base}`);
  const payloads = variants.map(({ v, name }) =>
    v.payload ? `${name}: ${types.expr(v.payload, `${name}Payload`, "string").code}` : `${name}: json.RawMessage`,
  );
  out.push(
    `${goDoc(submit, `submits a job of the pipeline ${goString(p.slug)} and waits for its result: held by the service, then polled. The body's "exactly one of" groups are checked before anything is sent; the submission is never sent twice. Decode the payload with Decode, by variant:`, `${payloads.join("; ")}.`)}
func (c *Client) ${submit}(ctx context.Context, body ${iface}, opts ...CallOption) (*sdkruntime.JobResult, error) {
\tform, err := sdkruntime.JobForm(body, func() (map[string]any, error) { return body.formBody() })
\tif err != nil {
\t\treturn nil, err
\t}
\treturn c.Submit(ctx, ${goString(p.slug)}, form, opts...)
}`,
  );
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
  return out.join("\n\n");
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
