// What the README tests of every language share: the fenced code blocks of a generated README, and the descriptions
// whose READMEs are checked beside the service's (generated/): two of the matrix's, one whose security schemes
// include HTTP basic and apiKey schemes and one that declares none, and one whose only scheme is HTTP basic.
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Descriptions of other APIs, by a short name. */
export const FOREIGN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  security: fileURLToPath(new URL("../matrix/descriptions/security.yaml", import.meta.url)),
  bodies: fileURLToPath(new URL("../matrix/descriptions/bodies.yaml", import.meta.url)),
  basicOnly: fileURLToPath(new URL("./basic-only.yaml", import.meta.url)),
};

export interface CodeBlock {
  /** 1-based line of the block's first code line in the markdown file. */
  readonly line: number;
  readonly code: string;
}

/** The fenced blocks of `markdown` whose info string is `language` (```ts, ```python, ```go, ```sh). */
export function codeBlocks(markdown: string, language: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  let start: number | undefined;
  for (const [index, text] of lines.entries()) {
    if (start === undefined) {
      if (text.trim() === `\`\`\`${language}`) start = index + 1;
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ line: start + 1, code: lines.slice(start, index).join("\n") });
      start = undefined;
    }
  }
  return blocks;
}
