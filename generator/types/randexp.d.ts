// randexp ships no type declarations; this is the part of its API the fixture sampler uses.
declare module "randexp" {
  export default class RandExp {
    constructor(pattern: string | RegExp, flags?: string);
    /** Upper bound of unbounded repetitions (`*`, `+`). */
    max: number;
    randInt: (low: number, high: number) => number;
    gen(): string;
  }
}
