// What the small-descriptions matrix asks of each language: given every description's output folder, the problems
// of compiling or importing the generated code there ([] when all is well). One driver per registered language.

/** One description's generated output. */
export interface MatrixPackage {
  /** The description's file name without `.yaml`. */
  readonly name: string;
  /** The folder generate() wrote, each language below its own part of it. */
  readonly out: string;
}

/** What a language's check found, one line each, prefixed with the description's name. */
export type MatrixDriver = (packages: readonly MatrixPackage[], work: string) => Promise<string[]>;
