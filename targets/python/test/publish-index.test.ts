// What the Python publisher reads from a package index's simple API: PEP 691's JSON where the index serves it (PyPI),
// PEP 503's HTML otherwise (pypiserver), each answered by a server on 127.0.0.1.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexedSha256 } from "../publish/index.js";

const SHA = "a".repeat(64);
const WHEEL = "my_package-2026.1127.900-py3-none-any.whl";

interface Answer {
  readonly status?: number;
  readonly type?: string;
  readonly body: string;
}

const pages: Record<string, Answer> = {
  "/json/my-package/": {
    type: "application/vnd.pypi.simple.v1+json",
    body: JSON.stringify({
      meta: { "api-version": "1.1" },
      name: "my-package",
      files: [
        { filename: "my_package-2026.1126.900-py3-none-any.whl", hashes: { sha256: "b".repeat(64) } },
        { filename: WHEEL, hashes: { sha256: SHA } },
      ],
    }),
  },
  "/json-nohash/my-package/": {
    type: "application/vnd.pypi.simple.v1+json",
    body: JSON.stringify({ files: [{ filename: WHEEL, hashes: {} }] }),
  },
  "/json-broken/my-package/": { type: "application/vnd.pypi.simple.v1+json", body: '{"files": ' },
  "/html/my-package/": {
    type: "text/html",
    body: `<html><body><a href="../../packages/${WHEEL}#sha256=${SHA}">${WHEEL}</a>\n<a href="x.whl#sha256=${"c".repeat(64)}">x.whl</a></body></html>`,
  },
  "/down/my-package/": { status: 503, type: "text/plain", body: "down" },
};

let server: Server;
let base = "";
const accepts: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    accepts.push(String(req.headers.accept));
    const page = pages[req.url ?? ""];
    res.writeHead(page?.status ?? (page ? 200 : 404), { "content-type": page?.type ?? "text/plain" });
    res.end(page?.body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the sha256 a package index gives for a file", () => {
  it.each([
    ["JSON (PEP 691), name normalised", "/json/", "My_Package", WHEEL, SHA],
    ["JSON, the file not held", "/json/", "my-package", "my_package-1.0-py3-none-any.whl", undefined],
    ["JSON, the file held without a sha256", "/json-nohash/", "my-package", WHEEL, "(no sha256 given by the index)"],
    ["HTML (PEP 503), index URL without its slash", "/html", "my.package", WHEEL, SHA],
    ["HTML, the file not held", "/html/", "my-package", "other.whl", undefined],
    ["a project the index does not know (404)", "/json/", "unknown", WHEEL, undefined],
  ])("%s", async (_, path, name, file, expected) => {
    expect(await indexedSha256(`${base}${path}`, name, file)).toBe(expected);
  });

  it("asks for the JSON form first, HTML accepted", async () => {
    await indexedSha256(`${base}/json/`, "my-package", WHEEL);
    expect(accepts.at(-1)).toBe("application/vnd.pypi.simple.v1+json, text/html;q=0.1");
  });

  it.each([
    [
      "an answer that is not JSON",
      "/json-broken/",
      /json-broken\/my-package\/ answered application\/vnd\.pypi\.simple\.v1\+json without a files list/,
    ],
    ["an error status", "/down/", /down\/my-package\/ answered 503/],
  ])("fails on %s, naming the URL", async (_, path, message) => {
    await expect(indexedSha256(`${base}${path}`, "my-package", WHEEL)).rejects.toThrow(message);
  });

  it("fails on an index that does not answer, naming it", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/simple/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(indexedSha256(url, "my-package", WHEEL)).rejects.toThrow(`the package index ${url} did not answer`);
  });
});
