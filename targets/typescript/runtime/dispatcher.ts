// Keeping the connection open for the whole hold. Node's built-in fetch (undici) stops waiting for response
// headers after 300 s (headersTimeout) and for body data after 300 s (bodyTimeout); a service may hold a submission
// longer, or close to that. createHoldDispatcher() returns an undici Agent with both timeouts raised above the
// description's longest hold (`model`); pass it as ClientOptions.dispatcher. The runtime's own deadline still applies.
// undici checks these timeouts on a timer of about one second, so they are not precise below that.
import { SdkError } from "./errors.js";
import { DEFAULT_HOLD_TIMEOUT_MS, holdTimeoutMs } from "./hold.js";
import type { ServiceModel } from "./model.js";

export { DEFAULT_HOLD_TIMEOUT_MS };

export interface HoldDispatcherOptions {
  /** The client's model (`client.model`): the timeouts default to its longest hold plus a margin. */
  model?: ServiceModel;
  /** Wait for response headers this long (default: above the model's longest hold; 330 s without one). */
  headersTimeoutMs?: number;
  /** Wait between body chunks this long (default as headersTimeoutMs). */
  bodyTimeoutMs?: number;
}

type AgentClass = new (options: { headersTimeout: number; bodyTimeout: number }) => unknown;

/**
 * An undici Agent with raised timeouts, from the `undici` package (an optional peer dependency: install the version
 * your Node's fetch is built on, `process.versions.undici`). Without it, pass `dispatcher: new Agent({ headersTimeout,
 * bodyTimeout })` of your own undici, or a fetch whose timeouts exceed the hold.
 */
export async function createHoldDispatcher(options: HoldDispatcherOptions = {}): Promise<unknown> {
  const Agent = await importedAgent();
  if (Agent === undefined) {
    throw new SdkError(
      "no undici Agent available: install the undici package (the version of process.versions.undici), or pass a fetch whose timeouts exceed the hold",
    );
  }
  const fallback = holdTimeoutMs(options.model);
  return new Agent({
    headersTimeout: options.headersTimeoutMs ?? fallback,
    bodyTimeout: options.bodyTimeoutMs ?? fallback,
  });
}

async function importedAgent(): Promise<AgentClass | undefined> {
  // A variable specifier keeps bundlers and the type checker from requiring the optional package.
  const specifier = "undici";
  try {
    const module = (await import(specifier)) as { Agent?: AgentClass };
    return module.Agent;
  } catch {
    return undefined;
  }
}
