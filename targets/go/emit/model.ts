/**
 * The body of ServiceModel() in model.go: the sdkruntime.Model filled from the IR, one statement per fact, as the
 * TypeScript target's ServiceModel holds them (errors, pipelines, pricing, servers, security schemes, environment
 * names, conventions, jobs, webhooks). Statements, not one nested literal, so that gofmt has nothing to align.
 */
import { envNames } from "../../../generator/emit/env-names.js";
import { requestIdHeader } from "../../../generator/emit/request-id.js";
import type { IR, Operation, Pipeline, Schema, Variant } from "../../../generator/ir/types.js";
import { goString } from "./escape.js";
import { serverLiteral } from "./operation-spec.js";
import { goFloat, goStrings, goStruct, uniqueBy } from "./go-value.js";

/** Go names of the operation variables (`opGetJob`), by operation id. */
export type OperationVars = ReadonlyMap<string, string>;

export function modelStatements(ir: IR, opVars: OperationVars): string[] {
  const lines: string[] = [];
  const add = (line: string) => lines.push(`\t${line}`);
  add(`m := &sdkruntime.Model{Release: Release, DescriptionHash: DescriptionHash, Title: ${goString(ir.info.title)}}`);
  const env = envNames(ir);
  add(`m.Env = sdkruntime.EnvNames{Token: ${goString(env.token)}, BaseURL: ${goString(env.baseUrl)}, Log: ${goString(env.log)}}`);
  add(`m.RequestIDHeader = ${goString(requestIdHeader(ir))}`);
  add("m.Errors = map[string]sdkruntime.ErrorSpec{}");
  for (const e of uniqueBy(ir.errors, (e) => e.code)) {
    add(
      `m.Errors[${goString(e.code)}] = ${goStruct("sdkruntime.ErrorSpec", { Status: String(e.status), Description: e.description ? goString(e.description) : undefined })}`,
    );
  }
  const sets = ir.operations.flatMap((o) => (o.variants ? [o.variants] : []));
  const pipelines = uniqueBy(
    sets.flatMap((s) => s.pipelines),
    (p) => p.slug,
  );
  add("m.Pipelines = map[string]sdkruntime.Pipeline{}");
  for (const p of pipelines) add(`m.Pipelines[${goString(p.slug)}] = ${pipelineLiteral(p)}`);
  const pricing = sets.find((s) => s.pricing)?.pricing;
  if (pricing) {
    add(
      `m.Pricing = &sdkruntime.Pricing{DefaultLane: ${goString(pricing.defaultLane)}, MinimumCharge: ${goFloat(pricing.minimumCharge ?? 0)}, LaneMultipliers: map[string]float64{}}`,
    );
    for (const [lane, multiplier] of Object.entries(pricing.laneMultipliers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      add(`m.Pricing.LaneMultipliers[${goString(lane)}] = ${goFloat(multiplier)}`);
    }
  }
  for (const s of ir.servers) add(`m.Servers = append(m.Servers, ${serverLiteral(s)})`);
  add("m.SecuritySchemes = map[string]sdkruntime.SecurityScheme{}");
  for (const s of uniqueBy(ir.securitySchemes, (s) => s.name)) {
    const literal =
      s.type === "http"
        ? goStruct("sdkruntime.SecurityScheme", { Type: "sdkruntime.SchemeHTTP", Scheme: goString((s.scheme ?? "bearer").toLowerCase()) })
        : s.type === "apiKey"
          ? goStruct("sdkruntime.SecurityScheme", {
              Type: "sdkruntime.SchemeAPIKey",
              In: goString(s.in ?? "header"),
              Name: goString(s.parameterName ?? ""),
            })
          : goStruct("sdkruntime.SecurityScheme", { Type: goString(s.type) });
    add(`m.SecuritySchemes[${goString(s.name)}] = ${literal}`);
  }
  const conventions = ir.conventions;
  if (conventions) {
    add(`m.Conventions = &sdkruntime.Conventions{BasePathSuffix: ${goString(conventions.basePathSuffix ?? "")}}`);
    const e = conventions.envelope;
    if (e) {
      add(
        `m.Conventions.Envelope = ${goStruct("&sdkruntime.Envelope", {
          Status: goString(e.status),
          Success: goString(e.success),
          Error: goString(e.error),
          Code: goString(e.code),
          Message: goString(e.message),
          ProcessingTime: e.processingTime === undefined ? undefined : goString(e.processingTime),
          Billing: e.billing === undefined ? undefined : goString(e.billing),
          NextRequestSeconds: e.nextRequestSeconds === undefined ? undefined : goStrings(e.nextRequestSeconds),
        })}`,
      );
    }
    const t = conventions.tokens;
    if (t) {
      const kinds = t.kinds.map((k) =>
        goStruct("", { Prefix: goString(k.prefix), Name: goString(k.name), ServerOnly: String(k.serverOnly) }),
      );
      add(
        `m.Conventions.Tokens = &sdkruntime.TokenKinds{Scheme: ${goString(t.scheme)}, Brand: ${goString(t.brand)}, Kinds: []sdkruntime.TokenKind{${kinds.join(", ")}}, RenewOn: ${goStrings(t.renewOn)}}`,
      );
    }
  }
  lines.push(...jobsStatements(ir, opVars));
  lines.push(...webhookStatements(ir));
  lines.push("\treturn m");
  return lines;
}

function pipelineLiteral(p: Pipeline): string {
  const jsonStrings = [...new Set(p.variants.flatMap((v) => v.jsonStrings))].sort();
  return goStruct("sdkruntime.Pipeline", {
    PayloadAfterPolling: goString(p.payloadAfterPolling),
    BaseCredits: p.baseCredits === undefined ? undefined : `Ptr(float64(${goFloat(p.baseCredits)}))`,
    JSONStrings: jsonStrings.length > 0 ? goStrings(jsonStrings) : undefined,
    Variants: p.variants.some((v) => !v.open) ? `[]sdkruntime.VariantFields{${p.variants.map(variantFields).join(", ")}}` : undefined,
  });
}

/** A variant's fields for the runtime's check before sending; an open variant (parameters not shown) lists none. */
function variantFields(v: Variant): string {
  return goStruct("", {
    Name: goString(v.name),
    DiscriminatorProperty: v.discriminator ? goString(v.discriminator.property) : undefined,
    DiscriminatorValue: v.discriminator ? goString(v.discriminator.value) : undefined,
    Open: v.open ? "true" : undefined,
    Fields: v.open ? undefined : goStrings(v.request.properties.map((p) => p.name)),
  });
}

function jobsStatements(ir: IR, opVars: OperationVars): string[] {
  const find = (role: string): Operation | undefined => ir.operations.find((o) => o.job?.role === role);
  const submit = find("submit");
  const poll = find("poll");
  const download = find("download");
  if (submit?.job?.role !== "submit" || poll?.job?.role !== "poll") return [];
  const s = submit.job;
  const p = poll.job;
  const noWait = s.noWait
    ? `&sdkruntime.NoWait{Field: ${goString(s.noWait.field)}, Value: ${typeof s.noWait.value === "string" ? goString(s.noWait.value) : String(s.noWait.value)}}`
    : undefined;
  const lines = [
    `\tm.Jobs = &sdkruntime.Jobs{}`,
    `\tm.Jobs.Submit = ${goStruct("sdkruntime.JobSubmit", {
      Operation: opVars.get(submit.id),
      PipelineParameter: submit.variants ? goString(submit.variants.selector) : undefined,
      JobID: goString(s.jobId),
      PollURL: s.pollUrl === undefined ? undefined : goString(s.pollUrl),
      StillRunningStatus: s.stillRunningStatus === undefined ? undefined : String(s.stillRunningStatus),
      NoWait: noWait,
      SelectorPattern: s.selectorPattern === undefined ? undefined : goString(s.selectorPattern),
      SelectorRefusal: s.selectorRefusal === undefined ? undefined : goString(s.selectorRefusal),
    })}`,
    `\tm.Jobs.Poll = ${goStruct("sdkruntime.JobPoll", {
      Operation: opVars.get(poll.id),
      JobIDParameter: goString(p.jobIdParameter),
      Status: goString(p.status),
      Completed: goString(p.completed),
      Payload: goStrings(p.payload),
    })}`,
  ];
  if (download?.job?.role === "download") {
    lines.push(
      `\tm.Jobs.Download = &sdkruntime.JobDownload{Operation: ${opVars.get(download.id)}, TokenParameter: ${goString(download.job.tokenParameter)}}`,
    );
  }
  return lines;
}

/** Property names of an object schema (following references and merging allOf members), for the webhook body. */
function propertyNames(ir: IR, schema: Schema, depth = 0): string[] {
  if (depth > 8) return [];
  switch (schema.kind) {
    case "ref": {
      const target = ir.schemas.find((s) => s.name === schema.name);
      return target ? propertyNames(ir, target.schema, depth + 1) : [];
    }
    case "object":
      return schema.properties.map((p) => p.name);
    case "intersection":
      return schema.members.flatMap((m) => propertyNames(ir, m, depth + 1));
    default:
      return [];
  }
}

/**
 * How deliveries are signed: header names from the webhooks' declared headers, body field names from the delivery
 * body, each found by what it is called (signature, event id, event type, subscription id, timestamp).
 */
function webhookStatements(ir: IR): string[] {
  if (ir.webhooks.length === 0) return [];
  const headers = ir.webhooks.flatMap((w) => w.headers.map((h) => h.name));
  const header = (pattern: RegExp): string => headers.find((h) => pattern.test(h)) ?? "";
  const fields = [...new Set(ir.webhooks.flatMap((w) => propertyNames(ir, w.body)))];
  const field = (...names: string[]): string => names.find((n) => fields.includes(n)) ?? "";
  const signature = header(/signature/i) || "X-Service-Signature";
  return [
    `\tm.Webhooks = ${goStruct("&sdkruntime.Webhooks", {
      SignatureHeader: goString(signature),
      SignaturePrefix: goString("sha256="),
      EventIDHeader: goString(header(/event-?id$/i) || "X-Service-Event-ID"),
      EventTypeHeader: goString(header(/-event(-type)?$/i)),
      SubscriptionIDHeader: goString(header(/subscription-?id$/i)),
      EventIDField: goString(field("event_id", "id") || "event_id"),
      EventTypeField: goString(field("event_type", "type", "event") || "event_type"),
      SubscriptionIDField: goString(field("subscription_id")),
      TimestampField: goString(field("timestamp", "created_at", "sent_at")),
      EventTypes: goStrings(uniqueBy(ir.webhooks, (w) => w.event).map((w) => w.event)),
    })}`,
  ];
}
