// The worker side of lane.ts: builds its languages' and outputs' emitters, waits for the IR, then runs them one
// after another, posting each one's files with their hashes.
import { createHash } from "node:crypto";
import type { MessagePort } from "node:worker_threads";
import { createKit, emitterName } from "./emit/kit.js";
import type { IR } from "./ir/types.js";
import type { HashedFile, LaneMessage, LaneRequest, StagedFile } from "./lane.js";
import { emittersFor } from "./languages.js";
import { EMITTER_GARBAGE_BYTES, garbageCollector } from "./memory.js";
import { writeStaged } from "./output.js";

export async function runLane(request: LaneRequest, port: MessagePort): Promise<void> {
  const { emitters, dispose } = await emittersFor(request.languages, request.outputs, request.targets, request.context);
  try {
    port.postMessage({ kind: "emitters", names: emitters.map(emitterName) } satisfies LaneMessage);
    const ir = await new Promise<IR>((resolve) => port.once("message", resolve));
    const collect = request.context.large ? garbageCollector(EMITTER_GARBAGE_BYTES) : () => {};
    const kit = createKit(collect);
    const folders = new Set<string>();
    for (const [i, emit] of emitters.entries()) {
      const files: readonly HashedFile[] = (await emit(ir, kit)).map((f) => ({
        path: f.path,
        content: f.content,
        sha256: createHash("sha256").update(f.content).digest("hex"),
      }));
      const emitter = emitterName(emit, i);
      if (request.staging) {
        // Written here: the files need not wait until the other thread has a turn, nor be held until then.
        const hashes = new Map(files.map((f) => [f.path, f.sha256]));
        const written = await writeStaged(request.staging, files, folders);
        const staged = written.map((w): StagedFile => ({ ...w, sha256: hashes.get(w.path)! }));
        port.postMessage({ kind: "staged", emitter, files: staged } satisfies LaneMessage);
      } else port.postMessage({ kind: "files", emitter, files } satisfies LaneMessage);
      collect();
    }
    port.postMessage({ kind: "done" } satisfies LaneMessage);
  } finally {
    dispose();
  }
}
