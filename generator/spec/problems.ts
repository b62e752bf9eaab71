/** One thing wrong with a description, located by a JSON pointer into it. */
export interface SpecProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Thrown when a description cannot be used; carries every problem found, not only the first. */
export class SpecError extends Error {
  readonly problems: readonly SpecProblem[];
  constructor(source: string, problems: readonly SpecProblem[]) {
    super(`${source}: ${problems.length} problem(s)\n${formatProblems(problems)}`);
    this.name = "SpecError";
    this.problems = problems;
  }
}

export function formatProblems(problems: readonly SpecProblem[]): string {
  return problems.map((p) => `  ${p.pointer || "/"}: ${p.message}`).join("\n");
}
