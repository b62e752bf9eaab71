// docs/ir.md's field reference is checked against the generated IR schema (not generated from it, so its prose
// stays written by hand): each type's section names every field the schema gives the type, and the sections
// name no field the schema lacks.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCHEMA_PATH } from "../../scripts/ir-schema/build.js";

type Node = { [key: string]: unknown };
const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Node & { $defs: Record<string, Node> };
const doc = readFileSync(new URL("../../docs/ir.md", import.meta.url), "utf8");

/** The section of docs/ir.md that documents each type's fields ("IR" is the root). */
const SECTION_OF: Record<string, string> = {
  IR: "Root",
  Server: "Root",
  SecurityScheme: "Root",
  NamedSchema: "Root",
  ErrorCode: "Root",
  Conventions: "Root",
  Envelope: "Root",
  TokenConventions: "Root",
  SubscriptionFields: "Root",
  WebhookConventions: "Webhooks",
  Pagination: "Operations",
  OffsetPagination: "Operations",
  CursorPagination: "Operations",
  LinkPagination: "Operations",
  Property: "Schema nodes",
  Operation: "Operations",
  Parameters: "Operations",
  Parameter: "Operations",
  RequestBody: "Operations",
  MediaContent: "Operations",
  FieldEncoding: "Operations",
  Response: "Operations",
  Header: "Operations",
  SecurityRequirement: "Operations",
  JobSubmit: "Operations",
  JobPoll: "Operations",
  JobDownload: "Operations",
  VariantSet: "Variants",
  Pricing: "Variants",
  Pipeline: "Variants",
  Variant: "Variants",
  Webhook: "Webhooks",
};
const sectionOf = (type: string): string | undefined => SECTION_OF[type] ?? (/Schema$/.test(type) ? "Schema nodes" : undefined);

/**
 * Words the sections use that are no IR field: OpenAPI and JSON Schema keywords and values, a function, fields of
 * the service's own bodies (a webhook subscription's `events`) and of GitHub's example (`[owner, repo, number]`).
 */
const NOT_FIELDS = new Set([
  ...["allOf", "nullable", "const", "true", "false", "operationId", "contentMediaType", "format", "binary"],
  ...["flattenObject", "IR_VERSION", "events", "owner", "repo"],
]);

/** Property names of a definition and of the objects written inline in it (references are not followed). */
function fieldsOf(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) fieldsOf(n, into);
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && value !== null && typeof value === "object") {
        for (const [name, sub] of Object.entries(value)) {
          into.add(name);
          fieldsOf(sub, into);
        }
      } else if (key !== "const" && key !== "enum") fieldsOf(value, into);
    }
  }
  return into;
}

/** String values the schema allows (`const`, `enum`): the sections name them too, as values. */
function valuesOf(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) valuesOf(n, into);
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "const" && typeof value === "string") into.add(value);
      else if (key === "enum" && Array.isArray(value)) {
        for (const v of value) if (typeof v === "string") into.add(v);
      } else valuesOf(value, into);
    }
  }
  return into;
}

/** The text of each `## ` section. */
const sections = new Map<string, string>();
for (const part of doc.split(/^## /m).slice(1)) {
  const newline = part.indexOf("\n");
  sections.set(part.slice(0, newline).trim(), part.slice(newline));
}

/** Identifiers in the code spans of a text; spans holding paths, extensions, versions or templates are skipped. */
function namedIn(text: string): Set<string> {
  const words = new Set<string>();
  for (const [, span] of text.matchAll(/`([^`]+)`/g)) {
    if (/[-/.<]/.test(span!)) continue;
    for (const [word] of span!.matchAll(/\w+/g)) if (/^[A-Za-z_]/.test(word)) words.add(word);
  }
  return words;
}

const { $defs: _defs, ...root } = schema;
const types: [string, Node][] = [["IR", root], ...Object.entries(schema.$defs)];
const documentedTypes = types.filter(([, def]) => fieldsOf(def).size > 0);

describe("docs/ir.md field reference", () => {
  it("has a section for every type with fields", () => {
    const missing = documentedTypes.map(([name]) => name).filter((name) => !sections.has(sectionOf(name) ?? "?"));
    expect(missing).toEqual([]);
  });

  it.each(documentedTypes)("names every field of %s in its section", (name, def) => {
    const named = namedIn(sections.get(sectionOf(name) ?? "?") ?? "");
    expect([...fieldsOf(def)].filter((field) => !named.has(field))).toEqual([]);
  });

  it("names no field the schema lacks", () => {
    const known = new Set([...fieldsOf(schema), ...valuesOf(schema), ...Object.keys(schema.$defs), ...NOT_FIELDS]);
    const checked = [...new Set(Object.values(SECTION_OF).concat("Schema nodes"))];
    const unknown = checked.flatMap((section) =>
      [...namedIn(sections.get(section) ?? "")].filter((w) => !known.has(w)).map((w) => `${section}: ${w}`),
    );
    expect(unknown).toEqual([]);
  });
});
