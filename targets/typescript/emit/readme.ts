import type { IR } from "../../../generator/ir/types.js";
import { errorClassNames } from "./client/errors.js";
import { envNames } from "../../../generator/emit/env-names.js";
import { BIN } from "../../../generator/names.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";
import { tsNames } from "./names.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import type { TsKit } from "./ts-kit.js";

const TEMPLATES = new URL("../templates/", import.meta.url);

/** What each emitted file holds, for the generated README. */
export const FILE_ROLES: Readonly<Record<string, string>> = {
  "index.ts": "the main entry: `createClient`, the operations, errors, request types and the runtime",
  "operations.ts": "one function per operation",
  "requests.ts": "exact request types per pipeline and variant, and their payload types",
  "schemas.ts": 'every named schema as a plain type (`ModelTier`), for `components["schemas"]["ModelTier"]`',
  "errors.ts": "an error class per error code",
  "model.ts": "release id, description hash, error table, pipelines, prices, event names",
  "webhooks.ts": "the webhooks entry (`<package>/webhooks`): the event union, a typed `verify`, receivers and deduplication",
  "types.ts": "paths, components and webhooks, by openapi-typescript",
  "fixtures/": "a valid request and a response per status for every operation and variant",
  "ir.json": "the intermediate model (see docs/ir.md)",
  "manifest.json": "release id, description hash and the sha256 of every file",
};

const cell = (text: string | undefined): string => (text ?? "").replaceAll("|", "\\|").replaceAll("\n", " ").trim();

/** README.md of the generated folder, from the target's templates/readme.hbs. */
export async function emitReadme(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const classes = errorClassNames(ir);
  const content = kit.render(TEMPLATES, "readme", {
    bin: BIN,
    package: kit.typescriptPackage ?? "",
    runtimePackage: RUNTIME_PACKAGE.name,
    clientModule: kit.typescriptPackage ?? "./client/index.js",
    webhooksModule: kit.typescriptPackage === undefined ? "./client/webhooks.js" : `${kit.typescriptPackage}/webhooks`,
    firstOperation: ir.operations[0] === undefined ? "" : tsNames(ir).operation(ir.operations[0]),
    title: ir.info.title,
    version: ir.info.version,
    envToken: envNames(ir).token,
    envBaseUrl: envNames(ir).baseUrl,
    hash: ir.info.descriptionHash,
    files: Object.entries(FILE_ROLES).map(([path, what]) => ({ path, what })),
    operations: ir.operations.map((o) => ({
      identifier: tsNames(ir).operation(o),
      method: o.method.toUpperCase(),
      path: o.path,
      summary: cell(o.summary),
    })),
    pipelines: ir.operations.flatMap((o) => o.variants?.pipelines ?? []),
    errors: ir.errors.map((e) => ({ ...e, className: classes.get(e.code) })),
    events: ir.webhooks.map((w) => ({ event: w.event, summary: cell(w.summary) })),
    // verify and the receivers exist only where the description states how deliveries are signed.
    signing: ir.webhooks.length > 0 && ir.conventions?.webhooks !== undefined,
    operationServers: ir.operations.some((o) => o.servers !== undefined),
  });
  return [{ path: "README.md", content: `${kit.header(ir, { open: "<!--", close: "-->" })}\n${content}` }];
}
