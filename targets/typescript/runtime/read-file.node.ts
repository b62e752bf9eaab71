// Reading a file on disk, for Node. The runtime reaches this module through its "#read-file" import, whose
// "node" condition picks it; browsers and other platforms get read-file.browser.ts, so bundlers never see node:fs.
import { openAsBlob } from "node:fs";

/** The file at `path` as a Blob of the given type, read lazily by Node. */
export function readFileBlob(path: string, type: string): Promise<Blob> {
  return openAsBlob(path, { type });
}
