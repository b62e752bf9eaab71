// The generated Python clients of two descriptions of test/matrix against a local server, the rule the TypeScript
// and Go clients follow too: a body that offers JSON beside both forms travels as JSON, and a header parameter named
// User-Agent is sent as the caller gave it, the client's own User-Agent going where no parameter sets one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { emitPython } from "../emit/index.js";
import { runPython } from "./python-program.js";

const wire = wireSuite(
  "python-request-choice-",
  matrixSources(["wire2-json-or-form", "wire2-user-agent-param"]),
  () => ({
    emitters: [emitPython],
  }),
  (request, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(request.url === "/clients" ? request.body : '{"ok":true}');
  },
);
const received = wire.received;

/** Runs a program with the generated package of a description importable. */
async function python(name: string, program: string): Promise<void> {
  await runPython(program, [wire.baseUrl], wire.base, join(wire.base, name, "python"));
}

describe("a body offering JSON and forms on the wire (Python)", () => {
  it("sends JSON, a one-element array staying an array", async () => {
    received.length = 0;
    await python(
      "wire2-json-or-form",
      `
import sys
from wire2_json_form.client import Client
Client(base_url=sys.argv[1]).create_app({"name": "a", "redirect_uris": ["https://x.test/cb"]})
`,
    );
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "a", redirect_uris: ["https://x.test/cb"] });
  });
});

describe("a header parameter named User-Agent on the wire (Python)", () => {
  it("sends the caller's value, and the client's own User-Agent where no parameter sets it", async () => {
    received.length = 0;
    await python(
      "wire2-user-agent-param",
      `
import sys
from wire2_agent.client import Client
client = Client(base_url=sys.argv[1])
client.get_echo(user_agent="SiriKit/1.0", x_trace="t1")
client.get_plain()
`,
    );
    expect(received[0]?.headers["user-agent"]).toBe("SiriKit/1.0");
    expect(received[0]?.headers["x-trace"]).toBe("t1");
    expect(received[1]?.headers["user-agent"]).toMatch(/^wire2-agent-sdk-python\//);
  });
});
