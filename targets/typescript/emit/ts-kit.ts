// The kit the TypeScript emitters share: the core's kit plus where the generated code imports the runtime from,
// and the package name.
import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmitKit, EmittedFile } from "../../../generator/emit/kit.js";
import type { IR } from "../../../generator/ir/types.js";
import { tsLineComment } from "./escape.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";

export interface TsKit extends EmitKit {
  /** How generated TypeScript imports the runtime: its package name, or a path to its sources. */
  readonly runtimeModule: string;
  /** How generated TypeScript imports the runtime's webhooks entry. */
  readonly runtimeWebhooksModule: string;
  /** The TypeScript SDK's package name, when the output is a package. */
  readonly typescriptPackage?: string;
}

/** A TypeScript emitter: reads the IR, returns files. */
export type TsEmitter = (ir: IR, kit: TsKit) => Promise<readonly EmittedFile[]>;

/** What the TypeScript emitters are told besides the core's kit. */
export interface TsSettings {
  readonly runtimeModule?: string | undefined;
  readonly typescriptPackage?: string | undefined;
}

/** The runtime's webhooks entry beside its main entry: `<package>/webhooks`, or `<path>/webhooks/index.js` for sources. */
export function runtimeWebhooksModule(runtimeModule: string): string {
  return runtimeModule.endsWith("/index.js") ? runtimeModule.replace(/index\.js$/, "webhooks/index.js") : `${runtimeModule}/webhooks`;
}

/** The core's kit with the TypeScript settings; headers use TypeScript's comment escaper. */
export function tsKit(kit: EmitKit, settings: TsSettings = {}): TsKit {
  const runtimeModule = settings.runtimeModule ?? RUNTIME_PACKAGE.name;
  return {
    render: kit.render,
    header: (ir, comment, escapeText = tsLineComment) => kit.header(ir, comment, escapeText),
    runtimeModule,
    runtimeWebhooksModule: runtimeWebhooksModule(runtimeModule),
    ...(settings.typescriptPackage !== undefined && { typescriptPackage: settings.typescriptPackage }),
  };
}

/** The runtime's sources in this repository (targets/typescript/runtime). */
export const RUNTIME_SOURCES = fileURLToPath(new URL("../runtime/", import.meta.url));

/** The module specifier of `<sources>/index.js` as seen from an output folder. */
export function sourcesModule(outDir: string, sources: string = RUNTIME_SOURCES): string {
  const path = relative(resolve(outDir), resolve(sources, "index.js")).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}
