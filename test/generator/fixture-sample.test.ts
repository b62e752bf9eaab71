// The fixture sampler on shapes of published descriptions: an example that contradicts its own schema is not
// used, since Prism (or the server) would refuse the request it makes.
import { describe, expect, it } from "vitest";
import { sample, seededRandom } from "../../generator/emit/fixtures/sample.js";
import type { Schema } from "../../generator/ir/types.js";

const scope = () => ({ named: new Map(), random: seededRandom("t") });

describe("sample", () => {
  it('skips an example outside the enum (GitHub\'s `"DISMISS"` beside enum [DISMISS])', () => {
    const schema: Schema = { kind: "enum", values: ["DISMISS"], examples: ['"DISMISS"'] };
    expect(sample(schema, scope())).toBe("DISMISS");
  });

  it("skips an example that is not of the format or pattern, and keeps one that is", () => {
    const uri: Schema = { kind: "string", format: "uri", examples: ["com/github/bar/libfoo-1.2.3"] };
    expect(sample(uri, scope(), 0, "path")).toBe("https://example.com/path");
    const digest: Schema = { kind: "string", pattern: "^sha256:[a-f0-9]{4}$", examples: ["sha256:0ecb...", "sha256:abcd"] };
    expect(sample(digest, scope())).toBe("sha256:abcd");
    const tooShort: Schema = { kind: "string", minLength: 5, examples: ["ab"], default: "abc" };
    expect(String(sample(tooShort, scope())).length).toBeGreaterThanOrEqual(5);
  });

  it("keeps an example of the right type, and the default when no example fits", () => {
    expect(sample({ kind: "integer", examples: ["12", 7] }, scope())).toBe(7);
    expect(sample({ kind: "boolean", examples: ["yes"], default: true }, scope())).toBe(true);
  });
});

describe("sample of a oneOf of required lists", () => {
  it("completes the first list and leaves out what only the others name (GitHub's add-item body)", () => {
    const schema: Schema = {
      kind: "object",
      additionalProperties: false,
      properties: [
        { name: "type", required: true, schema: { kind: "enum", values: ["Issue"] } },
        { name: "id", required: false, schema: { kind: "integer" } },
        { name: "owner", required: false, schema: { kind: "string" } },
        { name: "repo", required: false, schema: { kind: "string" } },
        { name: "number", required: false, schema: { kind: "integer" } },
      ],
      oneOfRequired: [["id"], ["owner", "repo", "number"]],
    };
    expect(Object.keys(sample(schema, scope()) as object)).toEqual(["type", "id"]);
  });
});
