/** Renders a diff as a changelog section (markdown) or as JSON. */
import { releaseIdProblem, releaseToVersion } from "../releases/version.js";
import type { Change } from "./model.js";

export interface TypeFailure {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface TypesSignal {
  /** The type-level test, relative to the repository. */
  readonly test: string;
  readonly failures: readonly TypeFailure[];
}

export interface DiffReport {
  readonly from: string;
  readonly to: string;
  readonly breaking: number;
  /** Changes that may break: the diff could not prove either way. */
  readonly warnings: number;
  readonly changes: readonly Change[];
  readonly types?: TypesSignal;
}

export function makeReport(from: string, to: string, changes: readonly Change[], types?: TypesSignal): DiffReport {
  const count = (severity: Change["severity"]) => changes.filter((c) => c.severity === severity).length;
  return { from, to, breaking: count("breaking"), warnings: count("warning"), changes, ...(types && { types }) };
}

export function toJson(report: DiffReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const line = (c: Change) => `- ${c.billing ? "**billing** " : ""}${c.message} \`${c.rule}\` (${c.in} \`${c.pointer || "/"}\`)`;

export function toMarkdown(report: DiffReport): string {
  const { changes } = report;
  const breaking = changes.filter((c) => c.severity === "breaking");
  const warnings = changes.filter((c) => c.severity === "warning");
  const other = changes.filter((c) => c.severity === "info");
  const version = releaseIdProblem(report.to) === undefined ? ` (package ${releaseToVersion(report.to)})` : "";
  const out = [`## ${report.to}${version}, from ${report.from}`, ""];
  const billing = changes.filter((c) => c.billing).length;
  out.push(
    changes.length === 0
      ? "No change to the interface."
      : `${changes.length} change${changes.length === 1 ? "" : "s"}, ${breaking.length} breaking${warnings.length > 0 ? `, ${warnings.length} that may break` : ""}${billing > 0 ? `, ${billing} to billing` : ""}.`,
  );
  if (breaking.length > 0) out.push("", "### Breaking", "", ...breaking.map(line));
  if (warnings.length > 0) out.push("", "### May break (not proven either way)", "", ...warnings.map(line));
  if (other.length > 0) out.push("", "### Not breaking", "", ...other.map(line));
  if (report.types) {
    const { test, failures } = report.types;
    out.push("", "### Type-level tests", "");
    if (failures.length === 0) out.push(`\`${test}\` compiles against the new client.`);
    else out.push(`\`${test}\` fails against the new client:`, "", ...failures.map((f) => `- line ${f.line}: ${f.message}`));
  }
  return `${out.join("\n")}\n`;
}
