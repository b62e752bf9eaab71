// Publishing a release: what each target hands over (its packages, how to find them in its registry, how to upload
// them) and the plan made from that. The core compares by content hash, in the registry's own terms, and uploads only
// what is missing, so that a run stopped half-way completes when run again and nothing is published twice.

/** One package version a registry receives. */
export interface Artifact {
  /** The package's name in its registry. */
  readonly name: string;
  readonly version: string;
  /** The file uploaded. */
  readonly file: string;
  /** Its content hash as the registry reports it (npm's integrity, a wheel's sha256, a Go module's h1: hash). */
  readonly hash: string;
  /** A runtime package, shared by every release: published when its version is not in the registry yet. */
  readonly runtime: boolean;
  /** What else the upload does, for the plan's line (npm's dist-tag, say). */
  readonly note?: string;
}

/** What a target publishes for one release, and its registry. */
export interface Publication {
  /** The ecosystem, for the plan's lines (npm, PyPI, Go). */
  readonly ecosystem: string;
  /** Where, for the plan's lines: a URL or folder, never a credential. */
  readonly registry: string;
  /** Runtime packages first: an SDK is uploaded only after what it requires. */
  readonly artifacts: readonly Artifact[];
  /** The registry's hash of the artifact's name and version, undefined when the registry does not hold that version. */
  readonly find: (artifact: Artifact) => Promise<string | undefined>;
  readonly upload: (artifact: Artifact) => Promise<void>;
}

export type State = "missing" | "same" | "different";

export interface PlannedArtifact {
  readonly publication: Publication;
  readonly artifact: Artifact;
  readonly state: State;
  /** The registry's hash, for a version it holds. */
  readonly found?: string | undefined;
}

/** A version the registry holds with other content: never replaced. */
export class PublishRefused extends Error {
  override readonly name = "PublishRefused";
}

/** Asks each registry about each artifact. */
export async function planPublication(publications: readonly Publication[]): Promise<PlannedArtifact[]> {
  const planned: PlannedArtifact[] = [];
  for (const publication of publications) {
    for (const artifact of publication.artifacts) {
      const found = await publication.find(artifact);
      const state: State = found === undefined ? "missing" : found === artifact.hash ? "same" : "different";
      planned.push({ publication, artifact, state, found });
    }
  }
  return planned;
}

const label = (p: PlannedArtifact) => `${p.publication.ecosystem} ${p.artifact.name}@${p.artifact.version}`;

/** One line of the plan: what, where, and what happens to it. */
export function planLine(p: PlannedArtifact, dryRun: boolean): string {
  const what = `${label(p).padEnd(56)} ${p.publication.registry}`;
  if (p.state === "same") return `${what}: already there, same content (skipped)`;
  if (p.state === "different") return `${what}: REFUSED, the registry holds this version with other content`;
  return `${what}: ${dryRun ? "would publish" : "publishing"}${p.artifact.note ? ` (${p.artifact.note})` : ""}`;
}

/**
 * Refuses the whole plan when a version exists with other content (before anything is uploaded), then uploads the
 * missing artifacts in order, telling each line as it goes. Returns how many were uploaded.
 */
export async function carryOut(
  plan: readonly PlannedArtifact[],
  say: (line: string) => void,
  afterUpload: (uploaded: number) => void = () => {},
): Promise<number> {
  refuseDifferent(plan);
  let uploaded = 0;
  for (const p of plan) {
    say(planLine(p, false));
    if (p.state !== "missing") continue;
    await p.publication.upload(p.artifact);
    uploaded++;
    afterUpload(uploaded);
  }
  return uploaded;
}

/** Throws PublishRefused naming every version the registries hold with other content. */
export function refuseDifferent(plan: readonly PlannedArtifact[]): void {
  const different = plan.filter((p) => p.state === "different");
  if (different.length > 0) {
    throw new PublishRefused(
      different
        .map(
          (p) =>
            `${label(p)} already exists in ${p.publication.registry} with other content (registry ${p.found}, built ${p.artifact.hash}); ` +
            "a published version is never replaced: release a new version instead",
        )
        .join("\n"),
    );
  }
}
