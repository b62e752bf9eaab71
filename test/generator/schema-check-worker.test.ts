// The OpenAPI-schema check's worker (generator/spec/schema-check.ts) where the process was started with
// --input-type=module, which workers inherit: a child process, so not among the quick tests of schema-check.test.ts.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

describe("the OpenAPI-schema check in a worker thread", () => {
  it("runs where the process was started with --input-type=module, which workers inherit", async () => {
    const module = pathToFileURL(join(import.meta.dirname, "../../generator/spec/schema-check.ts")).href;
    const script = `
      const { schemaProblemsInWorker } = await import(${JSON.stringify(module)});
      const document = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { responses: "none" } } } };
      console.log(JSON.stringify(await schemaProblemsInWorker(document)));`;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 60_000 }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    const problems = JSON.parse(stdout) as { pointer: string }[];
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.some((p) => p.pointer.startsWith("/paths/~1a/get/responses"))).toBe(true);
  }, 90_000);
});
