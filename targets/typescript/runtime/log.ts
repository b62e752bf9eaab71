// The client's logger: the logger option (console-compatible; default console) filtered by a level, from the logLevel
// option, else the environment variable the model names, else off. A logger given without a level gets every entry,
// so that its own level decides. Header values pass through the client's redaction before they reach it.
import { environmentVariable } from "./base-url.js";
import { SdkError } from "./errors.js";
import type { ServiceModel } from "./model.js";

export type LogFn = (message: string, fields?: Record<string, unknown>) => void;

/** Any object with some of these methods works, `console` included. Tokens are never passed to it. */
export interface Logger {
  debug?: LogFn;
  info?: LogFn;
  warn?: LogFn;
  error?: LogFn;
}

/** Most verbose first; `off` logs nothing. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];

function parseLevel(value: string, where: string): LogLevel {
  const level = value.trim().toLowerCase() as LogLevel;
  if (LEVELS.includes(level)) return level;
  throw new SdkError(`${where} is ${JSON.stringify(value)}: use one of ${LEVELS.join(", ")}`);
}

/** The logger entries go to, holding only the methods of the levels that are on; undefined when nothing is logged. */
export function resolveLogger(
  options: { logger?: Logger | undefined; logLevel?: LogLevel | undefined },
  model: ServiceModel,
): Logger | undefined {
  const variable = model.env?.log;
  const fromEnv = options.logLevel === undefined ? environmentVariable(variable) : undefined;
  const level =
    options.logLevel !== undefined
      ? parseLevel(options.logLevel, "options.logLevel")
      : fromEnv !== undefined
        ? parseLevel(fromEnv, `the environment variable ${variable}`)
        : options.logger !== undefined
          ? "debug"
          : "off";
  if (level === "off") return undefined;
  const sink: Logger = options.logger ?? console;
  const from = LEVELS.indexOf(level);
  const logger: Logger = {};
  for (const name of ["debug", "info", "warn", "error"] as const) {
    const fn = sink[name];
    if (LEVELS.indexOf(name) >= from && typeof fn === "function") logger[name] = fn.bind(sink);
  }
  return logger;
}

/** Header names whose values are credentials whatever they hold. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|key|secret|signature|password/i;

/** Headers for a debug entry: credential headers and the client's secrets shown as `[redacted]`. */
export function loggedHeaders(
  headers: Iterable<[string, string]>,
  redact: (text: string) => string,
  secretNames: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    out[name] = SECRET_HEADER.test(name) || secretNames.has(name.toLowerCase()) ? "[redacted]" : redact(value);
  }
  return out;
}
