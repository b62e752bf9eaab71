// What the mock knows about the service: the IR (generated/ir.json) and the generated fixtures, read once, plus
// the route table built from the IR's operations. Nothing here is written per endpoint.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IR, JsonValue, Operation, Pipeline, Schema, Variant } from "../generator/ir/index.js";

/** A `$file` placeholder of the fixtures. */
export interface FixtureFile {
  $file: { name: string; contentType: string; text: string };
}

export interface FixtureCase {
  name: string;
  pipeline?: string;
  variant?: string;
  request: {
    path: Record<string, string>;
    query: Record<string, JsonValue>;
    mediaType?: string;
    body?: Record<string, unknown>;
  };
  /** By HTTP status. */
  responses: Record<string, unknown>;
}

export interface OperationFixture {
  operationId: string;
  method: string;
  path: string;
  cases: FixtureCase[];
}

export interface WebhookFixture {
  event: string;
  body: Record<string, unknown>;
}

export interface Route {
  operation: Operation;
  pattern: RegExp;
  /** Names of the path parameters, in the order of the pattern's groups. */
  names: string[];
}

export interface MockModel {
  ir: IR;
  operations: Map<string, Operation>;
  fixtures: Map<string, OperationFixture>;
  webhookFixtures: Map<string, WebhookFixture>;
  routes: Route[];
  /** Named schemas by name. */
  schemas: Map<string, Schema>;
}

export const GENERATED_DIR = fileURLToPath(new URL("../generated/", import.meta.url));

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function compileRoute(operation: Operation): Route {
  const names: string[] = [];
  let source = "";
  for (const part of operation.path.split(/(\{[^}]+\})/)) {
    const param = /^\{([^}]+)\}$/.exec(part);
    if (param) {
      names.push(param[1]!);
      source += "([^/]+)";
    } else {
      source += escapeRegExp(part);
    }
  }
  return { operation, pattern: new RegExp(`^${source}$`), names };
}

/** Reads the IR and the fixtures from a generated/ folder (the repository's by default). */
export function loadModel(dir: string = GENERATED_DIR): MockModel {
  const ir = readJson<IR>(join(dir, "ir.json"));
  const fixtures = new Map<string, OperationFixture>();
  const opsDir = join(dir, "fixtures", "operations");
  for (const file of readdirSync(opsDir).filter((f) => f.endsWith(".json"))) {
    const fixture = readJson<OperationFixture>(join(opsDir, file));
    fixtures.set(fixture.operationId, fixture);
  }
  const webhookFixtures = new Map<string, WebhookFixture>();
  for (const hook of readJson<WebhookFixture[]>(join(dir, "fixtures", "webhooks.json"))) webhookFixtures.set(hook.event, hook);
  return {
    ir,
    operations: new Map(ir.operations.map((op) => [op.id, op])),
    fixtures,
    webhookFixtures,
    // Literal paths before templated ones, so that a fixed segment wins over a parameter.
    routes: ir.operations.map(compileRoute).sort((a, b) => a.names.length - b.names.length),
    schemas: new Map(ir.schemas.map((s) => [s.name, s.schema])),
  };
}

export interface RouteMatch {
  operation: Operation;
  params: Record<string, string>;
}

/** The operation for a method and a path below the base address; `methodMismatch` when only the path is known. */
/** The operation of a request; for a known path with another method, the methods it has (for 405 and `Allow`). */
export function matchRoute(
  model: MockModel,
  method: string,
  path: string,
): RouteMatch | { methodMismatch: true; allow: string[] } | undefined {
  const allow = new Set<string>();
  for (const route of model.routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    allow.add(route.operation.method.toUpperCase());
    if (route.operation.method !== method.toLowerCase()) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? "");
    });
    return { operation: route.operation, params };
  }
  return allow.size > 0 ? { methodMismatch: true, allow: [...allow].sort() } : undefined;
}

/** Follows references to named schemas until a structural node. */
export function resolveSchema(model: MockModel, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current.kind === "ref" && depth < 32; depth++) {
    const target = model.schemas.get(current.name);
    if (!target) break;
    current = target;
  }
  return current;
}

export function pipelineOf(operation: Operation, slug: string): Pipeline | undefined {
  return operation.variants?.pipelines.find((p) => p.slug === slug);
}

/** The fixture case of one variant of addJob. */
export function variantFixture(model: MockModel, pipeline: string, variant: string): FixtureCase | undefined {
  return model.fixtures.get("addJob")?.cases.find((c) => c.pipeline === pipeline && c.variant === variant);
}

export function variantOf(pipeline: Pipeline, name: string): Variant | undefined {
  return pipeline.variants.find((v) => v.name === name);
}

export function isFixtureFile(value: unknown): value is FixtureFile {
  return typeof value === "object" && value !== null && "$file" in value;
}

/** A deep copy of a JSON value. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
