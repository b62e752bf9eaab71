/**
 * The names the Python templates (templates/python/) declare or import, by module. A generated name that equals
 * one of them would shadow it; test/generator/names.test.ts keeps these lists equal to what the templates declare.
 */

export const PY_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is " +
    "lambda nonlocal not or pass raise return try while with yield match case type _"
  ).split(" "),
);

/** Modules client.py (and aio.py, from the same template) import, by the name they are bound to. */
export const PY_CLIENT_IMPORTS: readonly string[] = [
  "asyncio",
  "json",
  "os",
  "tempfile",
  "time",
  "_t",
  "urllib",
  "_co",
  "_tr",
  "_er",
  "_ty",
];

/** What an operation method's body refers to besides its parameters: a parameter of that name would shadow it. */
export const PY_METHOD_BODY_NAMES: readonly string[] = [
  "self",
  "body",
  "deadline",
  "answer",
  "form",
  "form_type",
  "Download",
  ...PY_CLIENT_IMPORTS,
];

/** Public members of the generated clients that an operation method must not replace. */
export const PY_CLIENT_MEMBERS: readonly string[] = [
  "aclose",
  "base_url",
  "close",
  "download",
  "download_to",
  "start_job",
  "submit_job",
  "wait_job",
];

/** Names errors.py declares or imports besides the generated error classes. */
export const PY_ERRORS_NAMES: readonly string[] = [
  "DeadlineExceededError",
  "ERROR_CLASSES",
  "JobDeadlineExceededError",
  "JobFailedError",
  "JobMayExistError",
  "MalformedResponseError",
  "SdkError",
  "ServiceConnectionError",
  "ServiceError",
  "WebhookPayloadError",
  "WebhookSignatureMalformedError",
  "WebhookSignatureMismatchError",
  "WebhookSignatureMissingError",
  "WebhookVerificationError",
  "error_from_answer",
  "_Redacts",
  "json",
  "_t",
  "_ty",
];

/** Names types.py declares or imports besides the generated types. */
export const PY_TYPES_NAMES: readonly string[] = [
  "FileInput",
  "FileUpload",
  "JsonObject",
  "JsonValue",
  "WebhookEvent",
  "dataclasses",
  "_t",
  // Imported by __init__.py and client.py beside the types; kept distinct so that a reader is never misled.
  "Client",
  "JobResult",
];
