// Operations with servers of their own, in the Go client, over HTTP on 127.0.0.1: two small servers here, a
// description written with their ports whose document server is the first and whose upload operation (and a path
// item) name the second, and a Go test program (e2e/operation_servers_e2e_test.go) in a module beside the generated
// one: without a base address each operation goes to its own first server, a given one applies to every operation,
// CallBaseURL sends one call elsewhere.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
const here = fileURLToPath(new URL("./", import.meta.url));
let base = "";
let main: Server;
let uploads: Server;

function listen(name: string): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = JSON.stringify({ server: name, path: req.url ?? "", authorization: req.headers.authorization ?? "" });
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

function description(mainPort: number, uploadsPort: number): Record<string, unknown> {
  const ok = {
    responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Seen" } } } } },
  };
  return {
    openapi: "3.1.0",
    info: { title: "op-servers-go", version: "1" },
    servers: [{ url: `http://127.0.0.1:${mainPort}/v1` }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Seen: {
          type: "object",
          required: ["server", "path", "authorization"],
          properties: { server: { type: "string" }, path: { type: "string" }, authorization: { type: "string" } },
        },
      },
    },
    paths: {
      "/plain": { get: { operationId: "plain", ...ok } },
      "/upload": {
        post: {
          operationId: "upload",
          servers: [
            { url: "http://{host}:{port}/up", variables: { host: { default: "127.0.0.1" }, port: { default: String(uploadsPort) } } },
            { url: `http://127.0.0.1:${mainPort}/never` },
          ],
          ...ok,
        },
      },
      "/path-level": { servers: [{ url: `http://127.0.0.1:${uploadsPort}` }], get: { operationId: "pathLevel", ...ok } },
      "/relative": { get: { operationId: "relative", servers: [{ url: "/rel" }], ...ok } },
    },
  };
}

beforeAll(async () => {
  [main, uploads] = await Promise.all([listen("main"), listen("uploads")]);
  base = await mkdtemp(join(tmpdir(), "go-op-servers-"));
  const source = join(base, "servers.json");
  await writeFile(source, JSON.stringify(description(portOf(main), portOf(uploads))));
  const dir = join(base, "ws");
  await writeGoWorkspace(dir, await generateGo(source), ["e2e"]);
  await mkdir(join(dir, "e2e"));
  await copyFile(join(here, "e2e", "operation_servers_e2e_test.go"), join(dir, "e2e", "operation_servers_e2e_test.go"));
  await writeFile(
    join(dir, "e2e", "go.mod"),
    "module example.com/e2e\n\ngo 1.22\n\nrequire (\n\texample.com/op-servers-go-sdk-go v0.0.0\n\tgithub.com/paperoffice/sdk-runtime-go v0.2.0\n)\n",
  );
}, LIMIT);

afterAll(async () => {
  await Promise.all([main, uploads].map((s) => new Promise((ok) => s?.close(ok))));
  if (base !== "") await rm(base, { recursive: true, force: true });
});

describe("operation servers (Go)", () => {
  it(
    "sends each operation to its own first server without a base address, and every one to a given base address",
    async () => {
      const dir = join(base, "ws");
      const outcome = await goRun(join(dir, "e2e"), "go", ["test", "-count=1", "-v", "./..."], {
        GOWORK: join(dir, "go.work"),
        MAIN_URL: `http://127.0.0.1:${portOf(main)}`,
        UPLOADS_URL: `http://127.0.0.1:${portOf(uploads)}`,
      });
      expect(outcome.code, outcome.output).toBe(0);
      for (const name of [
        "TestOperationsGoToTheirOwnServers",
        "TestAGivenBaseURLAppliesToEveryOperation",
        "TestCallBaseURLSendsOneCallElsewhere",
      ]) {
        expect(outcome.output).toContain(`--- PASS: ${name}`);
      }
    },
    LIMIT,
  );
});
