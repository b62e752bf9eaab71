// The job helpers a generated client exports in place of the runtime's. createClient's model leaves out the job part
// (`jobModel`), so that a bundle of one operation does not carry it; each helper passes it to the runtime's function
// of the same name.
import type * as TS from "typescript";
import { exportedConstant } from "../ts-file.js";
import { call, id } from "../ts-functions.js";
import { factory as f } from "../ts-nodes.js";
import { ts } from "../typescript.js";

interface JobHelper {
  readonly name: string;
  /** Escaped doc lines. */
  readonly doc: readonly string[];
  readonly parameters: readonly string[];
}

/** The helpers bound by an arrow that passes its arguments on; their types are the runtime functions'. */
const ARROWS: readonly JobHelper[] = [
  {
    name: "submitJob",
    doc: ["Submits a job and waits for its payload: hold first, then polling while it runs. Works for any valid slug."],
    parameters: ["client", "pipeline", "body", "options"],
  },
  {
    name: "startJob",
    doc: ["Submits with the description's no-wait field set and returns a handle at once."],
    parameters: ["client", "pipeline", "body", "options"],
  },
  { name: "waitJob", doc: ["Waits for a job by id, from any process."], parameters: ["client", "jobId", "options"] },
  {
    name: "priceJob",
    doc: ["Credits a job costs: base credits x lane multiplier, at least the minimum charge."],
    parameters: ["client", "pipeline", "lane"],
  },
];

const DOWNLOAD_DOC = ["A file: by a download token or a full URL from a result, or the binary answer of an operation."];

/** The name the runtime's function is imported as, beside the helper that takes its name. */
const runtimeName = (name: string): string => `${name}Of`;

/** `export const name: typeof nameOf = (a, b) => nameOf(a, b, jobModel);` */
function boundArrow(helper: JobHelper): TS.VariableStatement {
  const arrow = f.createArrowFunction(
    undefined,
    undefined,
    helper.parameters.map((p) => f.createParameterDeclaration(undefined, undefined, p)),
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    call(runtimeName(helper.name), undefined, [...helper.parameters, "jobModel"].map(id)),
  );
  return exportedConstant(helper.name, arrow, helper.doc, f.createTypeQueryNode(id(runtimeName(helper.name))));
}

/**
 * `export const downloadFile = bindDownloadFile(jobModel);`: downloadFile has overloads, and an arrow typed by them
 * would have untyped parameters, so the runtime binds it with the overloads kept. Marked pure, so that a bundle that
 * downloads nothing drops it.
 */
function boundDownloadFile(): TS.VariableStatement {
  const bound = call("bindDownloadFile", undefined, [id("jobModel")]);
  return exportedConstant(
    "downloadFile",
    ts.addSyntheticLeadingComment(bound, ts.SyntaxKind.MultiLineCommentTrivia, " @__PURE__ ", false),
    DOWNLOAD_DOC,
  );
}

/** The names a job function or a binary operation calls, which refer to these helpers in operations.ts. */
export const JOB_HELPER_NAMES: readonly string[] = [...ARROWS.map((h) => h.name), "downloadFile"];

/** The helpers' statements, and what they import of the runtime (`name as nameOf`, and bindDownloadFile). */
export function jobHelpers(
  /** Helpers the caller declares itself (still importing the runtime's function of the name). */
  declaredElsewhere: ReadonlySet<string> = new Set(),
): { readonly statements: readonly TS.VariableStatement[]; readonly imports: readonly string[] } {
  return {
    statements: [...ARROWS.filter((h) => !declaredElsewhere.has(h.name)).map(boundArrow), boundDownloadFile()],
    imports: [...ARROWS.map((h) => `${h.name} as ${runtimeName(h.name)}`), "bindDownloadFile"],
  };
}
