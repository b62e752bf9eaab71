import { createRequire } from "node:module";
import type * as TS from "typescript";
import type {
  astToString,
  GlobalContext,
  OpenAPI3,
  resolveRef,
  scanDiscriminators,
  transformPathsObject,
  transformSchema,
  tsModifiers,
} from "openapi-typescript";

/**
 * openapi-typescript's transform, printer and ref helpers, from the modules that hold them. Its index also loads
 * Redocly's linter and bundler (about 0.4 s of CPU at every start), which openApiTypes does not use.
 */
interface TransformCore {
  transformSchema: typeof transformSchema;
  transformPathsObject: typeof transformPathsObject;
  tsModifiers: typeof tsModifiers;
  scanDiscriminators: typeof scanDiscriminators;
  resolveRef: typeof resolveRef;
  astToString: typeof astToString;
  /** The `typescript` package openapi-typescript builds and prints its trees with: nodes made to join its trees. */
  ts: typeof TS;
}

/** The CommonJS files (the package's `./*` export) of TransformCore, for `require`. */
const CORE_MODULES = {
  transform: "openapi-typescript/dist/transform/index.cjs",
  paths: "openapi-typescript/dist/transform/paths-object.cjs",
  utils: "openapi-typescript/dist/lib/utils.cjs",
  ts: "openapi-typescript/dist/lib/ts.cjs",
} as const;

const require = createRequire(import.meta.url);
let core: TransformCore | undefined;

function transformCore(): TransformCore {
  if (core === undefined) {
    const utils = require(CORE_MODULES.utils) as Pick<TransformCore, "scanDiscriminators" | "resolveRef">;
    const printing = require(CORE_MODULES.ts) as Pick<TransformCore, "astToString" | "tsModifiers">;
    core = {
      transformSchema: require(CORE_MODULES.transform) as typeof transformSchema,
      transformPathsObject: require(CORE_MODULES.paths) as typeof transformPathsObject,
      scanDiscriminators: utils.scanDiscriminators,
      resolveRef: utils.resolveRef,
      astToString: printing.astToString,
      tsModifiers: printing.tsModifiers,
      ts: createRequire(require.resolve(CORE_MODULES.ts))("typescript") as typeof TS,
    };
  }
  return core;
}

/** Our openapi-typescript options; everything else is its default. */
const OPTIONS = { alphabetize: false, defaultNonNullable: false, exportType: false, immutable: false, silent: true } as const;

/** The context openapiTS() builds from OPTIONS, but for what it computes from the document and what a run fills in. */
const CONTEXT = {
  ...OPTIONS,
  additionalProperties: false,
  arrayLength: false,
  emptyObjectsUnknown: false,
  enum: false,
  enumValues: false,
  conditionalEnums: false,
  dedupeEnums: false,
  excludeDeprecated: false,
  pathParamsAsTypes: false,
  postTransform: undefined,
  propertiesRequiredByDefault: false,
  rootTypes: false,
  rootTypesNoSchemaPrefix: false,
  rootTypesKeepCasing: false,
  transform: undefined,
  transformProperty: undefined,
  makePathsEnum: false,
  generatePathParams: false,
  readWriteMarkers: false,
} as const satisfies Omit<GlobalContext, "discriminators" | "resolve" | "redoc" | "injectFooter">;

/**
 * How many paths openApiTypes transforms and prints at a time. The syntax tree of a large description's types is
 * several hundred MB (MS Graph's: about 600 MB for 28 MB of text), nearly all of it paths and operations; printed a
 * part at a time, only a part's tree is held. openapi-typescript's transform also copies its `operations` interface
 * for each operation it adds, which costs time quadratic in the operations of one transform.
 */
export const PATHS_PER_PART = 64;

/**
 * The types of an OpenAPI document: openapi-typescript's transform, printed, with the context openapiTS() would
 * build from OPTIONS. openapiTS() first lints and bundles its input with Redocly: two walks of the whole document,
 * 2 of its 3.5 s on GitHub's description, that find nothing here: the document is rebuilt from the IR of a
 * validated description and its references are all local, so the bundle is the document itself.
 * A document of more than `pathsPerPart` paths is transformed and printed that many paths at a time, then the rest
 * of the document, and the parts put together as the whole would print (inParts).
 * targets/typescript/test/openapi-types.test.ts checks that both print the same text as openapiTS(), in parts of
 * every size.
 */
export function openApiTypes(document: OpenAPI3, options: PieceOptions = {}): string {
  return openApiTypePieces(document, options).join("");
}

export interface PieceOptions {
  /** How many paths are transformed and printed at a time (default PATHS_PER_PART). */
  readonly pathsPerPart?: number;
  /** Runs after each part of the paths is printed: a chance for the part's syntax tree, now garbage, to go. */
  readonly afterPart?: () => void;
  /**
   * The document holds no `discriminator` object, as a document irToOpenApi rebuilt from the IR does: then
   * openapi-typescript's scan for them, two walks of the whole document that would find none (0.6 to 0.8 s of CPU on
   * MS Graph's description), is left out.
   */
  readonly withoutDiscriminators?: boolean;
}

/**
 * openApiTypes' text in pieces, to be joined once: a large description's types are tens of MB, and each join of
 * a part of them on the way is a copy as large. The caller joins them once the document is let go.
 */
export function openApiTypePieces(document: OpenAPI3, options: PieceOptions = {}): string[] {
  const { pathsPerPart = PATHS_PER_PART, afterPart = () => {}, withoutDiscriminators = false } = options;
  const c = transformCore();
  const discriminators: GlobalContext["discriminators"] = withoutDiscriminators
    ? { objects: {}, refsHandled: [] }
    : c.scanDiscriminators(document, OPTIONS);
  const context = (): GlobalContext => ({
    ...CONTEXT,
    injectFooter: [],
    discriminators,
    resolve: ($ref) => c.resolveRef(document, $ref, { silent: OPTIONS.silent }),
    get redoc(): never {
      throw new Error("openapi-typescript's transform read its Redocly config, which it is not given");
    },
  });
  const paths = Object.entries(document.paths ?? {});
  if (paths.length <= pathsPerPart) return [c.astToString(c.transformSchema(document, context()))];
  return inParts(c, document, paths, pathsPerPart, context, afterPart);
}

/** The text of an interface's members as astToString prints them inside `export interface <name> {`. */
function membersText(c: TransformCore, name: string, members: TS.NodeArray<TS.TypeElement>): string {
  const text = c.astToString(c.ts.factory.createInterfaceDeclaration(c.tsModifiers({ export: true }), name, undefined, undefined, members));
  const head = `export interface ${name} {\n`;
  if (!text.startsWith(head) || !text.endsWith("}\n"))
    throw new Error(`openapi-typescript printed interface ${name} in a form not known here`);
  return text.slice(head.length, -2);
}

const declared = (ts: typeof TS, node: TS.Node): string | undefined =>
  ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) ? node.name.text : undefined;

/**
 * transformSchema's output for a document with many paths, a part of the paths at a time. The whole prints
 * `paths` (an interface of every path's members, or an empty record type), `webhooks`, `components`, `$defs`, then
 * what the transform added at the end in the order it first added it: `operations` (every operation, those of
 * paths first) and helper types such as `WithRequired`, and an empty `operations` when there is none.
 */
function inParts(
  c: TransformCore,
  document: OpenAPI3,
  paths: readonly [string, unknown][],
  pathsPerPart: number,
  context: () => GlobalContext,
  afterPart: () => void,
): string[] {
  const pathMembers: string[] = [];
  const operationMembers: string[] = [];
  // The end's declarations by name, in the order the transform first added them; `operations` is put together.
  const footer = new Map<string, string | undefined>();
  const addFooter = (nodes: readonly TS.Node[]) => {
    for (const node of nodes) {
      const name = declared(c.ts, node);
      if (name === undefined) throw new Error("openapi-typescript added a declaration without a name at the end of its output");
      if (name === "operations" && c.ts.isInterfaceDeclaration(node)) {
        operationMembers.push(membersText(c, name, node.members));
        if (!footer.has(name)) footer.set(name, undefined);
      } else if (!footer.has(name)) footer.set(name, c.astToString(node));
    }
  };
  for (let i = 0; i < paths.length; i += pathsPerPart) {
    const ctx = context();
    const type = c.transformPathsObject(Object.fromEntries(paths.slice(i, i + pathsPerPart)) as OpenAPI3["paths"] & object, ctx);
    if (!c.ts.isTypeLiteralNode(type)) throw new Error("openapi-typescript's paths transform returned a type that is not a literal");
    pathMembers.push(membersText(c, "paths", type.members));
    addFooter(ctx.injectFooter);
    afterPart();
  }
  // The rest of the document, its paths empty: `paths` first, then one declaration a root, then the end's.
  const ctx = context();
  const statements = c.transformSchema({ ...document, paths: {} }, ctx);
  const ends = ctx.injectFooter.length + (ctx.injectFooter.some((n) => declared(c.ts, n) === "operations") ? 0 : 1);
  const roots = statements.slice(0, statements.length - ends);
  if (roots.length === 0 || declared(c.ts, roots[0]!) !== "paths") throw new Error("openapi-typescript's output does not start with paths");
  addFooter(ctx.injectFooter);
  const hasPaths = pathMembers.some((m) => m.length > 0);
  return [
    ...(hasPaths ? ["export interface paths {\n", ...pathMembers, "}\n"] : [c.astToString(roots[0]!)]),
    c.astToString(roots.slice(1)),
    ...[...footer].flatMap(([name, text]) => (text === undefined ? [`export interface ${name} {\n`, ...operationMembers, "}\n"] : [text])),
    footer.has("operations") ? "" : c.astToString(statements[statements.length - 1]!),
  ];
}

/** What openapiTS() itself prints for the document with OPTIONS: the reference for openApiTypes. */
export async function openApiTypesByOpenapiTS(document: OpenAPI3): Promise<string> {
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  return astToString(await openapiTS(document, OPTIONS));
}
