// The Google-style sections of a generated method's docstring (Args:, Returns:, Raises:), which editors and
// documentation tools show per parameter. Other sections of a docstring (the summary, the description) come from
// the caller; each section here is built from the facts the caller gives, and left out when it has none.

/** One entry of a section: `name: text` (Args, Raises), or text alone (Returns). */
export interface DocEntry {
  readonly name?: string;
  readonly text: string;
}

export interface MethodSections {
  readonly args: readonly DocEntry[];
  readonly returns: readonly DocEntry[];
  readonly raises: readonly DocEntry[];
}

/** Text of one entry on one line (the docstring wraps it, continuations indented under the entry). */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

function section(title: string, entries: readonly DocEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const lines = entries.map((e) => `    ${e.name === undefined ? "" : `${e.name}: `}${oneLine(e.text)}`);
  return [`${title}:`, ...lines].join("\n");
}

/** The sections as docstring text, in Google style's order, blank lines between them ("" when all are empty). */
export function methodSections(sections: MethodSections): string {
  return [section("Args", sections.args), section("Returns", sections.returns), section("Raises", sections.raises)]
    .filter((s): s is string => s !== undefined)
    .join("\n\n");
}
