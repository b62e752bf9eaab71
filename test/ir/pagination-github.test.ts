// GitHub's description (@octokit/openapi) declares a Link header on its list operations: the IR recognises them as
// Link header reads, an answer that is the array itself without an items field, one wrapped in an object with its
// array's name.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import { checkDescription } from "../../generator/spec/load.js";

const SOURCE = "node_modules/@octokit/openapi/generated/api.github.com.json";

describe("GitHub's lists page by the Link header", () => {
  it("recognises repository issues, organisation repositories and installation repositories", async () => {
    const text = readFileSync(SOURCE, "utf8");
    const ir = buildIR(await checkDescription({ source: SOURCE, text, document: JSON.parse(text) as Record<string, unknown> }));
    const paging = new Map(ir.operations.map((o) => [o.id, o.pagination]));
    expect(paging.get("issues/list-for-repo")).toEqual({ kind: "link", source: "link-header" });
    expect(paging.get("repos/list-for-org")).toEqual({ kind: "link", source: "link-header" });
    expect(paging.get("apps/list-repos-accessible-to-installation")).toEqual({
      kind: "link",
      items: "repositories",
      source: "link-header",
    });
    // A read without the header (one issue) is no paged read.
    expect(paging.get("issues/get")).toBeUndefined();
  }, 120_000);
});
