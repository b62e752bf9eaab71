// Operations with servers of their own, in the Go client, over HTTP on 127.0.0.1: two small servers here, a
// description written with their ports whose document server is the first and whose upload operation (and a path
// item) name the second, and a Go test program (e2e/operation_servers_e2e_test.go) in a module beside the generated
// one: without a base address each operation goes to its own first server, a given one applies to every operation,
// CallBaseURL sends one call elsewhere.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationServersDescription } from "../../../test/support/operation-servers.js";
import { type RecordingServer, recordingServer } from "../../../test/support/wire.js";
import { generateGo, goTestE2e, writeE2eModule, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
let base = "";
let main: RecordingServer;
let uploads: RecordingServer;

async function listen(name: string): Promise<RecordingServer> {
  const server = recordingServer((request, res) => {
    const body = JSON.stringify({ server: name, path: request.url, authorization: request.headers.authorization ?? "" });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await server.listen();
  return server;
}
const portOf = (server: RecordingServer) => server.port;

/** The answer every operation declares: where the request arrived, as the server saw it. */
const SEEN = {
  type: "object",
  required: ["server", "path", "authorization"],
  properties: { server: { type: "string" }, path: { type: "string" }, authorization: { type: "string" } },
};

beforeAll(async () => {
  [main, uploads] = await Promise.all([listen("main"), listen("uploads")]);
  base = await mkdtemp(join(tmpdir(), "go-op-servers-"));
  const source = join(base, "servers.json");
  await writeFile(
    source,
    JSON.stringify(
      operationServersDescription("op-servers-go", portOf(main), portOf(uploads), { $ref: "#/components/schemas/Seen" }, { Seen: SEEN }),
    ),
  );
  const dir = join(base, "ws");
  await writeGoWorkspace(dir, await generateGo(source), ["e2e"]);
  await writeE2eModule(dir, "operation_servers_e2e_test.go", [
    "example.com/op-servers-go-sdk-go v0.0.0",
    "github.com/paperoffice/sdk-runtime-go v0.2.0",
  ]);
}, LIMIT);

afterAll(async () => {
  await Promise.all([main, uploads].map((s) => s?.close()));
  if (base !== "") await rm(base, { recursive: true, force: true });
});

describe("operation servers (Go)", () => {
  it(
    "sends each operation to its own first server without a base address, and every one to a given base address",
    async () => {
      const dir = join(base, "ws");
      const outcome = await goTestE2e(dir, {
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
