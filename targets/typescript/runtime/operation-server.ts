// Where an operation with servers of its own (operation- or path-level) is sent. Its generated function sends it
// through atOperationServer, so that the bundles of other operations carry none of this.
import { checkBaseUrl, environmentVariable, fillServer } from "./base-url.js";
import type { BillingData, OperationServerOptions, OperationSpec, RequestOptions } from "./model.js";
import { internals, type Runtime } from "./runtime.js";

/**
 * Sends one call (`send`, given the options to send it with) to its base address: the call's baseUrl when given;
 * else the client's when the client's base address was given, by option or environment variable, which then
 * applies to every operation so that a mock or proxy sees them all; else the operation's first server, its
 * variables at their defaults, a relative one resolved below the client's base address. A bad address is a rejection.
 */
export function atOperationServer<R>(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  options: OperationServerOptions | undefined,
  send: (options: RequestOptions) => Promise<R>,
): Promise<R> {
  let at: OperationServerOptions | undefined;
  try {
    at = withBaseUrl(client, op, options);
  } catch (refused) {
    return Promise.reject(refused);
  }
  return send(at ?? {});
}

function withBaseUrl(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  options: OperationServerOptions | undefined,
): OperationServerOptions | undefined {
  if (options?.baseUrl !== undefined) return { ...options, baseUrl: checkBaseUrl(options.baseUrl, "options.baseUrl") };
  const { baseUrl: given, model, options: resolved } = client[internals];
  const server = op.servers?.[0];
  if (server === undefined || given !== undefined || environmentVariable(model.env?.baseUrl) !== undefined) return options;
  const filled = fillServer(server, undefined);
  let url = filled;
  try {
    // Below the base address as a folder: "uploads" is under its path, "/uploads" at its origin.
    url = new URL(filled, `${resolved.baseUrl}/`).href;
  } catch {
    // Left as it is: checkBaseUrl says what is wrong with it.
  }
  return { ...options, baseUrl: checkBaseUrl(url, `the server ${JSON.stringify(server.url)} of operation ${op.operationId}`) };
}
