/**
 * Release pairs of a published description: trimmed copies of GitHub's REST description from versions of the
 * `@octokit/openapi` npm package (test/diff/corpus/manifest.json names the package, versions, file and sha256 of
 * each; test/diff/corpus/trim.ts made the copies). Every change below was checked by hand against the two
 * published files; what a pair changed that is not listed must not be reported, additive changes included.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffReleases, loadRelease } from "../../generator/diff/index.js";
import { ROOT } from "./cli.js";
import type { CorpusPair } from "./corpus/trim.js";

const DIR = join(ROOT, "test", "diff", "corpus");
type Want = readonly [rule: string, severity: "breaking" | "warning" | "info", pointer: string];

const BODY = (path: string, method: string) => `/paths/${path.replaceAll("/", "~1")}/${method}/requestBody`;
const JSON_BODY = (path: string, method: string) => `${BODY(path, method)}/content/application~1json/schema`;
const S = (name: string, ...rest: string[]) => ["/components/schemas", name, ...rest].join("/");

const EXPECTED: Record<string, readonly Want[]> = {
  "GitHub REST 20.0.0 to 21.0.0": [
    // /users/{user_id}/projectsV2/{project_number} became /users/{username}/...: the same operation, its path
    // parameter renamed (components/parameters/user-id to username, both strings). The client's signature names it.
    ["operation.path-parameter-renamed", "breaking", "/paths/~1users~1{username}~1projectsV2~1{project_number}/get/parameters/1"],
    // create-campaign: code_scanning_alerts no longer required and now nullable; oneOf of required
    // code_scanning_alerts or secret_scanning_alerts (which is not a property). Every body accepted before had
    // code_scanning_alerts and no secret_scanning_alerts: the group refuses none of them.
    ["request.exactly-one.added", "info", `${JSON_BODY("/orgs/{org}/campaigns", "post")}/oneOf`],
    ["request.field.optional-now", "info", `${JSON_BODY("/orgs/{org}/campaigns", "post")}/properties/code_scanning_alerts`],
    ["request.type.widened", "info", `${JSON_BODY("/orgs/{org}/campaigns", "post")}/properties/code_scanning_alerts`],
    // Additive only: new optional request fields (create-hosted-runner-for-org: image.version, image_gen).
    ["request.field.added", "info", `${JSON_BODY("/orgs/{org}/actions/hosted-runners", "post")}/properties/image/properties/version`],
    ["request.field.added", "info", `${JSON_BODY("/orgs/{org}/actions/hosted-runners", "post")}/properties/image_gen`],
    // Additive only: new response fields (runners' image version and image_gen; teams' type, organization_id,
    // enterprise_id, type required).
    ["response.field.added", "info", S("actions-hosted-runner", "properties", "image_gen")],
    ["response.field.added", "info", S("nullable-actions-hosted-runner-pool-image", "properties", "version")],
    ["response.field.added", "info", S("nullable-team-simple", "properties", "enterprise_id")],
    ["response.field.added", "info", S("nullable-team-simple", "properties", "organization_id")],
    ["response.field.added", "info", S("nullable-team-simple", "properties", "type")],
    ["response.field.added", "info", S("team", "properties", "enterprise_id")],
    ["response.field.added", "info", S("team", "properties", "organization_id")],
    ["response.field.added", "info", S("team", "properties", "type")],
    // GET /zen is unchanged: nothing.
  ],
  "GitHub REST 22.0.0 to 23.0.0": [
    // upload-sarif commit_sha: minLength 40, maxLength 40 -> 64, pattern ^[0-9a-fA-F]+$ ->
    // ^([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)$. Every 40-digit hex accepted before still is.
    ["request.pattern.widened", "info", S("code-scanning-analysis-commit-sha")],
    ["request.range.widened", "info", S("code-scanning-analysis-commit-sha")],
    // get-branch-rules: repository-rule-detailed's oneOf gains one member (license compliance scanning) at 18;
    // four members move after it. One member added, not a cascade of changes between unrelated members.
    ["response.union.member-added", "breaking", S("repository-rule-detailed", "oneOf", "18")],
    // The pull request rule's parameters gain dismissal_restriction (its member is the same one, changed).
    ["response.field.added", "info", S("repository-rule-pull-request", "properties", "parameters", "properties", "dismissal_restriction")],
  ],
  "GitHub REST 23.0.0 to 23.0.1": [
    // GET contents had a request body with examples and no schema; removed. The only change of this release.
    ["request.body.removed-without-schema", "info", BODY("/repos/{owner}/{repo}/contents/{path}", "get")],
  ],
};

const manifest = JSON.parse(await readFile(join(DIR, "manifest.json"), "utf8")) as CorpusPair[];
const order = (a: Want, b: Want) => (a.join(" ") < b.join(" ") ? -1 : 1);

describe("the corpus", () => {
  it("has an expectation for every pair of the manifest, and copies of exactly the manifest's paths", async () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(manifest.map((p) => p.name).sort());
    for (const pair of manifest) {
      expect(pair.package).toBe("@octokit/openapi");
      for (const side of [pair.old, pair.new]) {
        expect(side.sha256).toMatch(/^[0-9a-f]{64}$/);
        const copy = JSON.parse(await readFile(join(DIR, side.copy), "utf8")) as { paths: Record<string, unknown> };
        expect(Object.keys(copy.paths).sort()).toEqual([...side.paths].sort());
      }
    }
  });
});

describe.each(manifest.map((p) => [p.name, p] as const))("%s", (name, pair) => {
  it("reports exactly the changes checked by hand, with their severity and place", async () => {
    const [old, next] = await Promise.all([loadRelease(join(DIR, pair.old.copy)), loadRelease(join(DIR, pair.new.copy))]);
    const got = diffReleases(old, next).map((c): Want => [c.rule, c.severity, c.pointer]);
    expect(got.sort(order)).toEqual([...(EXPECTED[name] ?? [])].sort(order));
  });
});
