// The description the targets' operation-servers tests share, written with the ports of two local servers: its
// document server is the first, its upload operation (and a path item) name the second, the upload's by server
// variables; one operation has a relative server.

/** The description titled `title`; every operation answers 200 with `schema` as JSON, `schemas` its components. */
export function operationServersDescription(
  title: string,
  mainPort: number,
  uploadsPort: number,
  schema: Readonly<Record<string, unknown>> = { type: "object" },
  schemas?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const ok = { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } };
  return {
    openapi: "3.1.0",
    info: { title, version: "1" },
    servers: [{ url: `http://127.0.0.1:${mainPort}/v1` }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } }, ...(schemas === undefined ? {} : { schemas }) },
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
