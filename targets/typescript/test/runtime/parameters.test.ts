// Header and cookie parameters, and fields whose names are Object.prototype's.
import { describe, expect, it } from "vitest";
import { jsonSerializer, multipartSerializer, parameterHeaders, prepareBody, urlencodedSerializer } from "../../runtime/encode.js";

describe("parameterHeaders", () => {
  it.each([
    { given: { header: { "X-Id": "a", "X-N": 3 } }, want: { "X-Id": "a", "X-N": "3" } },
    { given: { header: { "X-List": ["a", "b"], "X-Skip": undefined, "X-Null": null } }, want: { "X-List": "a,b" } },
    { given: { header: { "X-Obj": { r: 1, g: 2 } } }, want: { "X-Obj": "r,1,g,2" } },
    { given: { cookie: { session: "a b", n: 1 } }, want: { Cookie: "session=a%20b; n=1" } },
    { given: { header: { "X-Id": "param" }, extra: { "X-Id": "explicit" } }, want: { "X-Id": "explicit" } },
    { given: {}, want: undefined },
  ])("$given", ({ given, want }) => {
    const g = given as { header?: Record<string, unknown>; cookie?: Record<string, unknown>; extra?: Record<string, string> };
    expect(parameterHeaders(g.header, g.cookie, g.extra)).toEqual(want);
  });

  it("takes the header parameters alone, as an operation without cookie parameters calls it", () => {
    // The generated call of such an operation passes one argument: this line is also checked by the typecheck.
    expect(parameterHeaders({ "X-Request-ID": "r" })).toEqual({ "X-Request-ID": "r" });
  });

  it("keeps a header parameter named __proto__ as a header", () => {
    const headers = parameterHeaders(Object.fromEntries([["__proto__", "x"]]), undefined, undefined)!;
    expect(Object.keys(headers)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });
});

describe("body fields named __proto__ and constructor", () => {
  const body = () =>
    Object.fromEntries([
      ["__proto__", { a: 1 }],
      ["constructor", "c"],
      ["nested", Object.fromEntries([["__proto__", "n"]])],
    ]);

  it("reach a JSON body", async () => {
    expect(JSON.parse(jsonSerializer(await prepareBody(body())))).toEqual(
      JSON.parse('{"__proto__":{"a":1},"constructor":"c","nested":{"__proto__":"n"}}'),
    );
  });

  it("reach a form body", async () => {
    const form = multipartSerializer(await prepareBody(body()));
    expect([...form.keys()]).toEqual(["__proto__[a]", "constructor", "nested[__proto__]"]);
    const url = urlencodedSerializer(await prepareBody(body()));
    expect(url.toString()).toBe("__proto__%5Ba%5D=1&constructor=c&nested%5B__proto__%5D=n");
  });
});
