// The generated Python clients of the media descriptions of test/matrix against a local server: a body declared only
// as application/x-www-form-urlencoded travels urlencoded (lists repeated, objects as name[key], as the TypeScript
// and Go clients send them), and a JSON schema under */* or application/* is decoded into its model, while a binary
// schema, or none, under */* stays a Download.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MEDIA_ANSWERS } from "../../../test/support/media-answers.js";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { emitPython } from "../emit/index.js";
import { runPython } from "./python-program.js";

const wire = wireSuite(
  "python-media-",
  matrixSources(["media-form-urlencoded", "media-star-json", "media-json-suffix"]),
  () => ({
    emitters: [emitPython],
  }),
  MEDIA_ANSWERS,
);
const received = wire.received;

/** Runs a program with the generated package of a description importable; its last line of output is JSON. */
async function python(name: string, program: string): Promise<unknown> {
  const stdout = await runPython(program, [wire.baseUrl], wire.base, join(wire.base, name, "python"));
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

describe("form bodies on the wire (Python)", () => {
  it("sends a urlencoded-only body urlencoded, lists repeated and objects as name[key]; multipart where both are declared", async () => {
    received.length = 0;
    const out = await python(
      "media-form-urlencoded",
      `
import json, sys
from media_form.client import Client
client = Client(base_url=sys.argv[1])
charge = client.create_charge({"amount": 100, "description": "a b&c=d", "expand": ["x", "y"], "metadata": {"order": "7"}})
client.add_note({"text": "hi"})
print(json.dumps(charge.id))
`,
    );
    expect(out).toBe("ch_1");
    expect(received[0]?.contentType).toBe("application/x-www-form-urlencoded");
    expect([...new URLSearchParams(received[0]?.body).entries()]).toEqual([
      ["amount", "100"],
      ["description", "a b&c=d"],
      ["expand", "x"],
      ["expand", "y"],
      ["metadata[order]", "7"],
    ]);
    expect(received[1]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
  });
});

describe("JSON under media ranges on the wire (Python)", () => {
  it("decodes */* and application/* with JSON schemas into models; keeps binary and schemaless */* as bytes", async () => {
    const out = await python(
      "media-star-json",
      `
import json, sys
from media_star.client import Client
from media_star.models import Comic
import paperoffice_runtime as rt
client = Client(base_url=sys.argv[1])
comic = client.get_comic()
comics = client.list_comics()
raw = client.get_raw()
untyped = client.get_untyped()
print(json.dumps({
    "comic": [type(comic) is Comic, comic.num, comic.title],
    "comics": [type(c) is Comic and c.num for c in comics],
    "raw": [isinstance(raw, rt.Download), raw.content.decode()],
    "untyped": [isinstance(untyped, rt.Download), untyped.content.decode()],
}))
`,
    );
    expect(out).toEqual({
      comic: [true, 614, "Woodpecker"],
      comics: [1, 2],
      raw: [true, '{"not":"parsed"}'],
      untyped: [true, "%PDF-1.7"],
    });
  });
});

describe("JSON of other JSON media types on the wire (Python)", () => {
  it("sends a merge-patch body as application/merge-patch+json, and reads +json and text/json answers as models", async () => {
    received.length = 0;
    const out = await python(
      "media-json-suffix",
      `
import json, sys
from media_json_suffix.client import Client
client = Client(base_url=sys.argv[1])
print(json.dumps([client.patch_thing("1", {"name": "b"}).name, client.get_legacy().name]))
`,
    );
    expect(received[0]?.contentType).toBe("application/merge-patch+json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "b" });
    expect(out).toEqual(["b", "old"]);
  });
});
