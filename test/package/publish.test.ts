// `paperoffice-sdk publish` from the packed toolchain installed in a fresh project outside the repository, with no
// runtime package configured: each target's runtime comes from the installed package (its tarball, its Python project,
// its Go module), so the dry run builds every package and plans every runtime beside the SDKs. The registries are a
// local server that holds nothing (npm's scope registry and the package index) and an empty module proxy folder.
import { createServer, type Server } from "node:http";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_MODULE, RUNTIME_VERSION } from "../../targets/go/emit/view.js";
import { venvBin } from "../../targets/python/test/package.js";
import { freshDir, npm, run, SERVICE_DESCRIPTION, tarballs, writeJson } from "./helpers.js";

let project: string;
let remove: () => Promise<void>;
let server: Server;
let url: string;
const asked: string[] = [];

beforeAll(async () => {
  const packs = await tarballs();
  ({ dir: project, remove } = await freshDir("publish"));
  server = createServer((request, response) => {
    asked.push(request.url ?? "");
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  await writeJson(join(project, "package.json"), { name: "release-project", private: true, type: "module" });
  await npm(["install", "--save-dev", packs.toolchain], project);
  // The SDK's scope and the runtime's, both on the local server (npm asks a scope's registry for its packages).
  await writeFile(join(project, ".npmrc"), `@acme:registry=${url}\n@paperoffice:registry=${url}\n`);
  await writeJson(join(project, "paperoffice-sdk.config.json"), {
    // The project's own description: the toolchain carries none.
    spec: SERVICE_DESCRIPTION,
    out: "sdk",
    outputs: { fixtures: false, ir: false },
    typescript: { package: "@acme/service-sdk" },
    python: { distribution: "acme-service-sdk", indexUrl: `${url}simple/`, uploadUrl: url },
    go: { module: "github.com/acme/service-sdk-go", proxy: "goproxy" },
  });
}, 600_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await remove?.();
});

describe("publish from the installed toolchain", () => {
  it("plans every runtime beside the SDKs, from the runtimes the package carries", async () => {
    const bin = join(project, "node_modules", ".bin", "paperoffice-sdk");
    const ran = await run(bin, ["publish"], project, { PATH: `${venvBin}:${process.env.PATH ?? ""}` });
    expect(ran.stderr).not.toMatch(/warning|error|npm run build/);
    const runtime = JSON.parse(
      await run("tar", ["-xOzf", (await tarballs()).runtime, "package/package.json"], project).then((r) => r.stdout),
    ) as { name: string; version: string };
    const lines = ran.stdout.split("\n").filter((l) => l.includes("would publish"));
    const planned = lines.map((l) => l.trim().split(/\s+/).slice(0, 2).join(" "));
    expect(planned.filter((p) => !p.includes("acme"))).toEqual([
      `npm ${runtime.name}@${runtime.version}`,
      "PyPI paperoffice-sdk-runtime@0.1.0",
      `Go ${RUNTIME_MODULE}@${RUNTIME_VERSION}`,
    ]);
    expect(planned.filter((p) => p.includes("acme"))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith("  npm ")).every((l) => l.includes(url))).toBe(true);
    expect(ran.stdout).toMatch(/^dry run: nothing was published \(--yes publishes the 6 missing\)$/m);
    // The registries were asked (and answered that they hold nothing); the proxy folder is not written by a dry run.
    expect(asked).toEqual(expect.arrayContaining(["/@paperoffice%2fsdk-runtime", "/simple/paperoffice-sdk-runtime/"]));
    await expect(readdir(join(project, "goproxy"))).rejects.toThrow(/ENOENT/);
  }, 600_000);
});
