// The runtime's model types (targets/typescript/runtime/model.ts) mirror parts of the IR (conventions, envelope,
// token kinds, jobs, pricing, pipelines) but cannot import the generator: the runtime package holds nothing from
// outside its folder. So the TypeScript compiler compares them here instead: a mirrored type has the IR type's
// field names (less the ones listed below, with why) and accepts every value the IR field holds.
import { type Node, Project, type Type } from "ts-morph";
import { describe, expect, it } from "vitest";

const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { strict: true, exactOptionalPropertyTypes: true } });
const runtimeFile = project.addSourceFileAtPath(
  decodeURIComponent(new URL("../../targets/typescript/runtime/model.ts", import.meta.url).pathname),
);
const irFile = project.addSourceFileAtPath(decodeURIComponent(new URL("../../generator/ir/types.ts", import.meta.url).pathname));
const checker = project.getTypeChecker().compilerObject;

/** The type at `Name.field.field[]` of a file: `[]` takes an array's element; optional fields lose undefined. */
function typeAt(file: typeof runtimeFile, path: string): { type: Type; node: Node } {
  const [name, ...steps] = path.split(".");
  const declaration = file.getInterface(name!) ?? file.getTypeAlias(name!);
  if (!declaration) throw new Error(`${path}: no type ${name}`);
  let type = declaration.getType();
  for (const step of steps) {
    const field = step.replace(/\[\]$/, "");
    const symbol = type.getProperty(field);
    if (!symbol) throw new Error(`${path}: no field ${field}`);
    type = symbol.getTypeAtLocation(declaration).getNonNullableType();
    if (step.endsWith("[]")) type = type.getArrayElementTypeOrThrow();
  }
  return { type, node: declaration };
}

const fields = (type: Type, node: Node) =>
  new Map(type.getProperties().map((p) => [p.getName(), { optional: p.isOptional(), type: p.getTypeAtLocation(node) }]));

interface Mirror {
  runtime: string;
  ir: string;
  /** Runtime fields the IR type lacks, and why. */
  runtimeOnly?: Record<string, string>;
  /** IR fields the runtime does without, and why. */
  irOnly?: Record<string, string>;
}

const MIRRORS: Mirror[] = [
  { runtime: "ConventionsModel", ir: "Conventions" },
  { runtime: "EnvelopeModel", ir: "Envelope" },
  { runtime: "TokenKindsModel", ir: "TokenConventions" },
  { runtime: "TokenKindsModel.kinds[]", ir: "TokenConventions.kinds[]" },
  {
    runtime: "JobsModel.submit",
    ir: "JobSubmit",
    runtimeOnly: { operation: "the operation itself, not its role", pipelineParameter: "VariantSet.selector of the operation" },
    irOnly: { role: "the key in JobsModel", poll: "JobsModel.poll names the poll operation" },
  },
  { runtime: "JobsModel.submit.noWait", ir: "JobSubmit.noWait" },
  {
    runtime: "JobsModel.poll",
    ir: "JobPoll",
    runtimeOnly: { operation: "the operation itself" },
    irOnly: { role: "the key in JobsModel" },
  },
  {
    runtime: "JobsModel.download",
    ir: "JobDownload",
    runtimeOnly: { operation: "the operation itself" },
    irOnly: { role: "the key in JobsModel" },
  },
  {
    runtime: "PricingModel",
    ir: "Pricing",
    irOnly: { unit: "always credits", laneField: "the lane travels in the typed request body, which the runtime does not read" },
  },
  {
    runtime: "PipelineModel",
    ir: "Pipeline",
    runtimeOnly: { jsonStrings: "the union of its variants' jsonStrings" },
    irOnly: {
      slug: "the key in ServiceModel.pipelines",
      identifier: "names of the generated code",
      summary: "documentation of the generated code",
      description: "documentation of the generated code",
      discriminators: "typed by the generated code",
    },
  },
];

describe("the runtime's model types mirror the IR's", () => {
  it.each(MIRRORS)("$runtime has the fields of $ir and accepts their values", ({ runtime, ir, runtimeOnly = {}, irOnly = {} }) => {
    const r = typeAt(runtimeFile, runtime);
    const i = typeAt(irFile, ir);
    const rFields = fields(r.type, r.node);
    const iFields = fields(i.type, i.node);
    const problems: string[] = [];
    for (const name of Object.keys(runtimeOnly))
      if (!rFields.has(name) || iFields.has(name)) problems.push(`${name}: listed as runtime only`);
    for (const name of Object.keys(irOnly)) if (!iFields.has(name) || rFields.has(name)) problems.push(`${name}: listed as IR only`);
    for (const name of rFields.keys()) if (!iFields.has(name) && !(name in runtimeOnly)) problems.push(`${name}: not in ${ir}`);
    for (const [name, field] of iFields) {
      if (name in irOnly) continue;
      const mirror = rFields.get(name);
      if (!mirror) problems.push(`${name}: missing from ${runtime}`);
      else if (field.optional && !mirror.optional) problems.push(`${name}: optional in the IR, required in the runtime`);
      else if (!checker.isTypeAssignableTo(field.type.getNonNullableType().compilerType, mirror.type.getNonNullableType().compilerType))
        problems.push(`${name}: the IR's ${field.type.getText()} is not a ${mirror.type.getText()}`);
    }
    expect(problems).toEqual([]);
  });

  it("has a JobsModel entry for each job role, and OperationSpec.job takes each role", () => {
    const roles = typeAt(irFile, "JobRole.role");
    const jobs = typeAt(runtimeFile, "JobsModel");
    const roleNames = roles.type.getUnionTypes().map((t) => String(t.getLiteralValue()));
    expect(
      jobs.type
        .getProperties()
        .map((p) => p.getName())
        .sort(),
    ).toEqual(roleNames.sort());
    expect(checker.isTypeAssignableTo(roles.type.compilerType, typeAt(runtimeFile, "OperationSpec.job").type.compilerType)).toBe(true);
  });
});
