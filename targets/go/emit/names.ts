/**
 * Go names for what the description names. Every exported name the templates declare is reserved here, so that a
 * schema, operation or error code can never declare it twice; keywords and predeclared identifiers are listed for
 * the unexported names derived from the description. The templates' own unexported names and locals are fixed and
 * never derived from the description.
 */
import { errorStemWords } from "../../../generator/emit/error-names.js";
import { memoByText } from "../../../generator/memo.js";

export { GO_KEYWORDS, GO_PREDECLARED } from "./keywords.js";
import { GO_KEYWORDS, GO_PREDECLARED } from "./keywords.js";

/** Exported names the templates declare at package level (client.go, model.go, webhooks.go). */
export const GO_PACKAGE_NAMES: readonly string[] = [
  "Release",
  "DescriptionHash",
  "ServiceModel",
  "Client",
  "New",
  "Option",
  "CallOption",
  "Ptr",
  "Decode",
  "WebhookEventTypes",
  "VerifyWebhook",
  "WithBaseURL",
  "WithToken",
  "WithTokenSource",
  "WithAPIKey",
  "WithBasicAuth",
  "WithCredential",
  "WithHTTPClient",
  "WithMaxRetries",
  "WithRetryDelays",
  "WithTimeout",
  "WithJobTimeout",
  "WithPollInterval",
  "WithHeader",
  "WithLogger",
  "WithLogLevel",
  "WithServerVariables",
  "CallTimeout",
  "CallMaxRetries",
  "CallHeader",
  "CallQuery",
  "CallBodyField",
  "CallIdempotencyKey",
];

/** Methods of the runtime's client, promoted through the generated Client's embedded field, and that field's name. */
export const GO_CLIENT_MEMBERS: readonly string[] = [
  "Client",
  "Call",
  "CallInto",
  "CallDownload",
  "Submit",
  "Start",
  "Wait",
  "Download",
  "DownloadToFile",
  "CheckPipeline",
  "BaseURL",
  "Model",
  "WithOptions",
];

/** Members every generated struct has besides its fields. */
export const GO_STRUCT_MEMBERS: readonly string[] = ["Extra", "MarshalJSON", "UnmarshalJSON"];

const INITIALISMS: ReadonlySet<string> = new Set(
  "api ascii csv db dns eof html http https id ip json jwt mfa ocr pdf sla sql ssh tls ttl uid ui uri url utf8 uuid xml".split(" "),
);

/** Words of a name: split at separators, case changes and letter-digit boundaries (ASCII only). */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/**
 * The joined words of a text, kept for texts seen before (generator/memo.ts): a large description names the same
 * properties, parameters and enum values thousands of times.
 */
const joinedWords = memoByText((text) =>
  words(text)
    .map((w) =>
      INITIALISMS.has(w.toLowerCase())
        ? w.toUpperCase()
        : `${w[0]!.toUpperCase()}${/^[A-Z0-9]+$/.test(w) ? w.slice(1).toLowerCase() : w.slice(1)}`,
    )
    .join(""),
);

/** An exported Go name (ASCII): `get_document-v2` -> `GetDocumentV2`, `job_id` -> `JobID`; never empty. */
export function goName(text: string, fallback = "X"): string {
  const joined = joinedWords(text);
  if (joined === "") return fallback;
  return /^[0-9]/.test(joined) ? `${fallback}${joined}` : joined;
}

/**
 * The Go name of an error code's sentinel from the code's words (generator/emit/error-names.ts, the same words every
 * language uses): `Err` and the words without a last `error`, in Go's case: `INTERNAL_ERROR` -> ErrInternal,
 * `BEARERTOKEN_EXPIRED` (split by the description) -> ErrBearerTokenExpired, `INVALID_URL` -> ErrInvalidURL.
 */
export function goErrorName(words: readonly string[]): string {
  return `Err${goName(errorStemWords(words).join(" "), "Code")}`;
}

/** Names unique within one scope, claimed in order: a taken name gets the first free numeric suffix. */
export class NameScope {
  private readonly taken: Set<string>;
  constructor(reserved: Iterable<string> = []) {
    this.taken = new Set(reserved);
  }
  claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name) || GO_KEYWORDS.has(name) || GO_PREDECLARED.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }
}

/** Lowercase-first form of an exported name, for unexported names derived from one (`isWorkflowRequest`). */
export const unexported = (prefix: string, name: string): string => `${prefix}${name}`;

/** A valid Go package name from a title: lowercase ASCII letters and digits, never a keyword or predeclared name. */
export function packageName(title: string): string {
  const base = words(title).join("").toLowerCase();
  const name = base === "" || /^[0-9]/.test(base) ? `api${base}` : base;
  return GO_KEYWORDS.has(name) || GO_PREDECLARED.has(name) || name === "sdkruntime" ? `${name}sdk` : name;
}

/** The title's words in lowercase joined by `-`, as the runtime's User-Agent does: `document-automation-service`. */
export function titleSlug(title: string): string {
  const slug = words(title).join("-").toLowerCase();
  return slug === "" ? "api" : slug;
}
