// Results of a pure function of a text, kept for texts seen before: a large description names the same properties,
// parameters and enum values thousands of times, and the emitters make the same identifiers and literals of them.
// The map is emptied when full, so that it stays small (a few MB at most) whatever the description.

/** How many texts a memo keeps before it starts again. */
export const MEMO_MAX = 65_536;

/** `make`, remembering its result for each text until `max` texts are held, then starting again from none. */
export function memoByText<T>(make: (text: string) => T, max = MEMO_MAX): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined || seen.has(text)) return known as T;
    const made = make(text);
    if (seen.size >= max) seen.clear();
    seen.set(text, made);
    return made;
  };
}
