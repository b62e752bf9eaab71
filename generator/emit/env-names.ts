// The environment variables a generated client reads for its default token, base address and log level: named from
// the description's title, the same in every language, so that one shell setting serves all of a service's SDKs.
import type { IR } from "../ir/types.js";

/** `Document Automation Service` -> `DOCUMENT_AUTOMATION_SERVICE`; a title without letters or digits gives `API`. */
export function envPrefix(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  const prefix = words.join("_").toUpperCase();
  return prefix === "" || /^[0-9]/.test(prefix) ? `API_${prefix}`.replace(/_$/, "") : prefix;
}

/** The levels the log variable takes, most verbose first; `off` logs nothing. */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "off"] as const;

/** Environment variables read for the default token, base address and log level (one of LOG_LEVELS). */
export function envNames(ir: IR): { token: string; baseUrl: string; log: string } {
  const prefix = envPrefix(ir.info.title);
  return { token: `${prefix}_TOKEN`, baseUrl: `${prefix}_BASE_URL`, log: `${prefix}_LOG` };
}
