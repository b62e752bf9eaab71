// What a target (an SDK language) gives the core. The core loads a target only through the registry
// (targets/index.ts), and a target's emitters only when a run writes that target, so that the command answers --help
// and mistakes without loading any emitter.
import type { Emitter } from "./emit/kit.js";
import type { TypesSignal } from "./diff/report.js";
import type { IR } from "./ir/types.js";
import type { Publication } from "./publish/plan.js";
import type { PrerequisiteContext, PublishReadiness } from "./publish/prerequisites.js";

/** A command-line flag a target adds to `generate` and `release`, setting one field of its options. */
export interface TargetFlag {
  /** The field of the target's options the flag sets. */
  readonly option: string;
  /** One line for --help. */
  readonly help: string;
}

/** What a run tells a target before it builds the IR. */
export interface TargetContext {
  /** Bytes of the description's text. */
  readonly descriptionBytes: number;
  /** A large description (the core checks it in a worker): a target may start slow work early, while it is checked. */
  readonly large: boolean;
  /** The folder the files will be written to, when the caller knows it (paths in options are resolved from it). */
  readonly outDir?: string | undefined;
  /** The optional outputs the run writes beside the languages (`fixtures`, `ir`); undefined when the caller chose the emitters. */
  readonly outputs?: readonly string[] | undefined;
}

/** The emitters of one target for one run, and what to release when the run ends. */
export interface TargetRun {
  readonly emitters: readonly Emitter[];
  /** Frees what the target started for the run (a worker no emitter used, say). */
  readonly dispose?: () => void;
}

export interface Target {
  /** One line for the docs and --help. */
  readonly summary: string;
  /**
   * What the target writes: `sdk` (the default), a client every SDK suite drives (the behaviour suite, the
   * small-descriptions matrix), or `server`, a program over another target's client, which those suites leave out
   * since no client of theirs drives it; it brings its own tests.
   */
  readonly kind?: "sdk" | "server";
  /**
   * Targets whose output this one's imports, which a run must write too: a run without them is refused before
   * anything is read.
   */
  readonly requires?: readonly string[];
  /**
   * JSON Schema of the target's block in paperoffice-sdk.config.json, whose key is the target's name. The core
   * checks a configuration against it, so a target's options need no change in the core.
   */
  readonly optionsSchema: object;
  /** Fields of the options that hold paths: resolved against the configuration file's folder. */
  readonly pathOptions?: readonly string[];
  /** Flags of `generate` and `release` that set an option, by flag name (without `--`). */
  readonly flags?: Readonly<Record<string, TargetFlag>>;
  /** The run's emitters, given the target's options (already checked against optionsSchema). */
  readonly load: (options: Readonly<Record<string, unknown>>, context: TargetContext) => Promise<TargetRun>;
  /**
   * The release check of the written package (compiles, imports...): its problems, [] when it passed, undefined
   * when the tool it needs is missing.
   */
  readonly check?: (outDir: string, ir: IR) => Promise<string[] | undefined>;
  /** The release diff's type-level test, for the test files it names by their ending. */
  readonly typeTest?: TypeTestCheck;
  /**
   * The written package and the target's runtime as its registry receives them (built into `context.work`), with how
   * to look them up there and upload them; `paperoffice-sdk publish` plans and carries out the rest.
   */
  /**
   * Folders below the output folder that the package's own tools write (a build, an install: `java/target`), with
   * forward slashes: a run carries them over as they are, rather than refusing a folder that holds them.
   */
  readonly buildFolders?: readonly string[];
  readonly publish?: (outDir: string, options: Readonly<Record<string, unknown>>, context: PublishContext) => Promise<Publication>;
  /**
   * What `publish` needs that is missing (tools on PATH, names the configuration must set, the runtime's files, where
   * the registry is), each problem with its fix, and warnings (a name guessed rather than configured). Asked before
   * anything is generated or built, of every target at once, so that one run reports every problem.
   */
  readonly publishPrerequisites?: (options: Readonly<Record<string, unknown>>, context: PrerequisiteContext) => Promise<PublishReadiness>;
}

/** What the publish command tells a target. */
export interface PublishContext {
  /** The release id. */
  readonly release: string;
  /** Whether it is the newest release (npm's `latest` goes to the newest only). */
  readonly newest: boolean;
  /** A folder of its own for the builds. */
  readonly work: string;
  /** The environment: each ecosystem's configuration and credentials, as its own tools read them. */
  readonly env: NodeJS.ProcessEnv;
}

/** The release diff's second signal: a type-level test written against the committed client, compiled against the new one. */
export interface TypeTestCheck {
  /** Endings of the test files this target compiles (`.ts`). */
  readonly extensions: readonly string[];
  /** The test's compile failures against the client generated from `source`, as the project's configuration says. */
  readonly check: (source: string, testFile: string, root: string) => Promise<TypesSignal>;
}

/** How the registry hands a target over: a module loaded on first use. */
export type TargetModule = () => Promise<{ readonly target: Target }>;
