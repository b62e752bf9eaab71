// The environment variables a generated client reads for its default token and base address: named from the
// description's title, the same in every language, so that one shell setting serves all of a service's SDKs.
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

/** Environment variables read for the default token and base address. */
export function envNames(ir: IR): { token: string; baseUrl: string } {
  const prefix = envPrefix(ir.info.title);
  return { token: `${prefix}_TOKEN`, baseUrl: `${prefix}_BASE_URL` };
}
