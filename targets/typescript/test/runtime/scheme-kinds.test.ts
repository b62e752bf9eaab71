// The security scheme kinds besides bearer tokens (auth-schemes.ts): a client is given those its model's schemes use,
// refuses a scheme of a kind it was not given, and names every scheme of a missing alternative.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeyScheme,
  callOperation,
  httpScheme,
  MissingCredentialsError,
  mutualTLSScheme,
  type OperationSpec,
  Runtime,
  SdkError,
  type ServiceModel,
} from "../../runtime/index.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const model = (schemes: NonNullable<ServiceModel["securitySchemes"]>): ServiceModel => ({
  release: "1",
  descriptionHash: "0".repeat(64),
  errors: {},
  pipelines: {},
  securitySchemes: schemes,
});

const op = (security: string[][]): OperationSpec => ({
  operationId: "getThing",
  method: "GET",
  path: "/thing",
  response: "json",
  security,
});

describe("security scheme kinds", () => {
  it("refuses, when the client is created, a scheme of a kind it was not given; bearer kinds need none", () => {
    const key = model({ key: { type: "apiKey", in: "header", name: "X-Key" } });
    expect(() => new Runtime(key, { baseUrl: server.baseUrl })).toThrow(SdkError);
    expect(() => new Runtime(key, { baseUrl: server.baseUrl }, {}, { apiKey: apiKeyScheme })).not.toThrow();
    const bearer = model({ a: { type: "http", scheme: "bearer" }, b: { type: "oauth2" }, c: { type: "openIdConnect" } });
    expect(() => new Runtime(bearer, { baseUrl: server.baseUrl })).not.toThrow();
  });

  it("names each scheme of a missing alternative, a mutual TLS one too", async () => {
    const client = new Runtime(
      model({ digest: { type: "http", scheme: "digest" }, tls: { type: "mutualTLS" } }),
      { baseUrl: server.baseUrl },
      {},
      { http: httpScheme, mutualTLS: mutualTLSScheme },
    );
    const error = await callOperation(client, op([["digest", "tls"]]), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect((error as Error).message).toBe(
      'getThing needs credentials: security scheme "digest" (HTTP digest: pass options.credentials["digest"] with the header value, ' +
        'or options.credentials["digest"]) and security scheme "tls" (mutualTLS token, sent as a bearer token: pass options.token, ' +
        'or options.credentials["tls"])',
    );
  });

  it("sends another HTTP scheme's credential as the whole header, and nothing for mutual TLS; copies keep the kinds", async () => {
    server.handle((_req, res) => sendJson(res, 200, {}));
    const client = new Runtime(
      model({ digest: { type: "http", scheme: "digest" }, tls: { type: "mutualTLS" } }),
      { baseUrl: server.baseUrl, credentials: { digest: "Digest abc" } },
      {},
      { http: httpScheme, mutualTLS: mutualTLSScheme },
    );
    await callOperation(client, op([["digest", "tls"]]), {});
    await callOperation(client.withOptions({}), op([["digest", "tls"]]), {});
    expect(server.received.map((r) => r.headers.authorization)).toEqual(["Digest abc", "Digest abc"]);
  });
});
