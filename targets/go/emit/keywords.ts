// Go's keywords and predeclared identifiers: what no name derived from a description may be. Its own module, so
// that the target's definition (options checks) loads without the name planner.
export const GO_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package " +
    "range return select struct switch type var"
  ).split(" "),
);

export const GO_PREDECLARED: ReadonlySet<string> = new Set(
  (
    "any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint " +
    "uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make " +
    "max min new panic print println real recover"
  ).split(" "),
);
