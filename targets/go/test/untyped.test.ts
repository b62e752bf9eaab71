// json.RawMessage in the service's module (generated/go) only where its description (generated/ir.json, made from the
// same release) leaves a value untyped: a named type, a struct field (by its JSON name) and a parameter field (by the
// parameter its doc names) of that Go type each stand for a schema that says nothing of its value; a union, for one,
// is never json.RawMessage.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IR, Schema } from "../../../generator/ir/types.js";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";

const GENERATED = join(REPO_ROOT, "generated", "go");

describe("json.RawMessage in generated/go", () => {
  it("stands only for values the description leaves untyped", async () => {
    const ir = JSON.parse(await readFile(join(REPO_ROOT, "generated", "ir.json"), "utf8")) as IR;
    const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
    const untyped = (s: Schema, seen: ReadonlySet<string> = new Set()): boolean => {
      switch (s.kind) {
        case "unknown":
          return true;
        case "ref": {
          const target = named.get(s.name);
          return target !== undefined && !seen.has(s.name) && untyped(target, new Set([...seen, s.name]));
        }
        case "json-text":
          return untyped(s.value, seen);
        case "array":
          return untyped(s.items, seen);
        case "object":
          return (
            s.properties.length === 0 &&
            (s.additionalProperties === true || (typeof s.additionalProperties === "object" && untyped(s.additionalProperties, seen)))
          );
        default:
          return false;
      }
    };
    // Every schema a property or a parameter of that name has, wherever it is.
    const properties = new Map<string, Schema[]>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === "object") {
        const o = node as { kind?: unknown; properties?: unknown };
        if (o.kind === "object" && Array.isArray(o.properties))
          for (const p of o.properties as { name: string; schema: Schema }[])
            properties.set(p.name, [...(properties.get(p.name) ?? []), p.schema]);
        Object.values(node).forEach(walk);
      }
    };
    walk(ir);
    const parameters = new Map<string, Schema[]>();
    for (const op of ir.operations)
      for (const p of [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie])
        parameters.set(p.name, [...(parameters.get(p.name) ?? []), p.schema]);

    const typed: string[] = [];
    let raw = 0;
    for (const f of (await readdir(GENERATED)).filter((x) => x.endsWith(".go"))) {
      const lines = (await readFile(join(GENERATED, f), "utf8")).split("\n");
      lines.forEach((line, at) => {
        // A declaration or a field whose type is json.RawMessage, a list or a map of it; functions are not values.
        const declared = /^type (\w+) =? ?(?:\[\]|map\[string\])?json\.RawMessage$/.exec(line);
        const field = /^\t(\w+) (?:\*|\[\]|map\[string\])?json\.RawMessage(?: `json:"([^",]*)[^`]*`)?$/.exec(line);
        if (declared === null && field === null) return;
        const tag = field?.[2];
        // Extra (`json:"-"`) holds the fields a release does not declare: untyped by nature.
        if (tag === "-") return;
        const where = `${f}:${at + 1}: ${line.trim()}`;
        raw++;
        if (declared !== null) {
          const schema = named.get(declared[1]!);
          if (schema === undefined || !untyped(schema)) typed.push(where);
          return;
        }
        // A parameter field has no JSON name: its doc names the parameter.
        let doc = "";
        for (let i = at - 1; i >= 0 && /^\t\/\//.test(lines[i]!); i--) doc = `${lines[i]} ${doc}`;
        const name = tag ?? /is the \w+ parameter "([^"]+)"/.exec(doc)?.[1];
        const schemas = name === undefined ? [] : ((tag !== undefined ? properties : parameters).get(name) ?? []);
        if (!schemas.some((s) => untyped(s))) typed.push(where);
      });
    }
    expect(raw, "json.RawMessage values in generated/go").toBeGreaterThan(0);
    expect(typed, "json.RawMessage where the description gives a type").toEqual([]);
  });
});
