// The ```ts blocks of a markdown file, as modules that can be type-checked and run from a folder under .tmp/.

/** A block whose first line is this marker is type-checked but not run; the marker must say why. */
export const COMPILE_ONLY = /^\/\/ compile-only: \S/;

export interface Example {
  /** 1-based line of the block's first code line in the markdown file. */
  readonly line: number;
  readonly code: string;
  readonly compileOnly: boolean;
}

export function tsExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split("\n");
  let start: number | undefined;
  for (const [index, text] of lines.entries()) {
    if (start === undefined) {
      if (/^```ts\s*$/.test(text)) start = index + 1;
    } else if (/^```\s*$/.test(text)) {
      const code = lines.slice(start, index).join("\n");
      examples.push({ line: start + 1, code, compileOnly: COMPILE_ONLY.test(code) });
      start = undefined;
    }
  }
  return examples;
}

/**
 * The block as a module file in a folder `root` away from the repository (`../..`): its `./` imports, written from
 * the repository's root as in the README, are rebased, and `export {}` (on the last line, so that line numbers stay
 * those of the block) makes it a module even without imports, so blocks do not share a global scope.
 */
export function asModule(example: Example, root: string): string {
  return `${example.code.replace(/(\bfrom\s+|\bimport\s*\(\s*)"\.\//g, `$1"${root}/`)}\nexport {};\n`;
}
