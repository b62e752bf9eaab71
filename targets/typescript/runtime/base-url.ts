// The base address of a client: the option, else the environment variable the description's README names, else
// the description's first server with its variables filled in. Checked once, with an error naming where it came from.
import { isBrowser } from "./auth.js";
import { SdkError } from "./errors.js";
import type { ServerModel, ServiceModel } from "./model.js";

interface BaseUrlOptions {
  baseUrl?: string | undefined;
  serverVariables?: Readonly<Record<string, string>> | undefined;
}

/**
 * An environment variable in Node (and runtimes with its `process`); undefined in browsers, when empty, and where the
 * runtime refuses to read it (Deno without --allow-env).
 */
export function environmentVariable(name: string | undefined): string | undefined {
  if (name === undefined || isBrowser()) return undefined;
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function resolveBaseUrl(options: BaseUrlOptions, model: ServiceModel): string {
  const fromEnv = options.baseUrl === undefined ? environmentVariable(model.env?.baseUrl) : undefined;
  const server = model.servers?.[0];
  let given: string;
  let source: string;
  if (options.baseUrl !== undefined) {
    given = options.baseUrl;
    source = "options.baseUrl";
  } else if (fromEnv !== undefined) {
    given = fromEnv;
    source = `the environment variable ${model.env?.baseUrl}`;
  } else if (server !== undefined) {
    given = fillServer(server, options.serverVariables);
    source = `the description's server ${JSON.stringify(server.url)}`;
  } else {
    throw new SdkError("options.baseUrl is required: the description declares no servers");
  }
  if (options.serverVariables !== undefined && server === undefined) {
    throw new SdkError("options.serverVariables: the description declares no servers");
  }
  return checkBaseUrl(given, source, model.conventions?.basePathSuffix);
}

/** The server's URL template with each `{name}` replaced by the option's value or the variable's default. */
export function fillServer(server: ServerModel, values: Readonly<Record<string, string>> | undefined): string {
  const variables = server.variables ?? {};
  for (const [name, value] of Object.entries(values ?? {})) {
    const variable = variables[name];
    if (variable === undefined) {
      const known = Object.keys(variables);
      throw new SdkError(
        `options.serverVariables.${name}: the server ${JSON.stringify(server.url)} has ${known.length === 0 ? "no variables" : `only ${known.join(", ")}`}`,
      );
    }
    if (typeof value !== "string") throw new SdkError(`options.serverVariables.${name} must be a string`);
    if (variable.enum !== undefined && !variable.enum.includes(value)) {
      throw new SdkError(
        `options.serverVariables.${name} must be one of ${variable.enum.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}`,
      );
    }
  }
  return server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const value = values?.[name] ?? variables[name]?.default;
    return value === undefined ? whole : value;
  });
}

export function checkBaseUrl(given: string, source: string, suffix?: string): string {
  const rule = suffix === undefined ? "" : ` ending in ${suffix}`;
  const wanted = `an absolute http(s) address${rule}, without query or fragment`;
  let text = typeof given === "string" ? given.trim() : "";
  // A relative server ("/api/v3") is below the page's origin in a browser; elsewhere the caller must say where.
  if (text.startsWith("/") && isBrowser()) {
    const href = (globalThis as { location?: { href?: string } }).location?.href;
    if (href !== undefined) text = new URL(text, href).href;
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const hint = source === "options.baseUrl" ? "" : "; pass options.baseUrl";
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "") {
    throw new SdkError(`baseUrl must be ${wanted}: ${source} gives ${JSON.stringify(given)}${hint}`);
  }
  if (/\{[^{}]*\}/.test(decodeURI(url.pathname + url.host))) {
    throw new SdkError(`baseUrl has an unfilled server variable: ${source} gives ${JSON.stringify(given)}${hint}`);
  }
  const base = text.replace(/\/+$/, "");
  if (suffix !== undefined && !base.endsWith(suffix)) {
    throw new SdkError(`baseUrl must be ${wanted} (the description's base-path rule): ${source} gives ${JSON.stringify(given)}${hint}`);
  }
  return base;
}
