// The service's own releases, as this repository keeps them (spec/releases, its configuration's `releases`): the
// release functions of the generator with that folder, for the tests about the service's description.
import { fileURLToPath } from "node:url";
import * as releases from "../../generator/spec/releases.js";

export const releasesDir = fileURLToPath(new URL("../../spec/releases/", import.meta.url));
export const listReleases = (dir = releasesDir): string[] => releases.listReleases(dir);
export const currentRelease = (dir = releasesDir): string => releases.currentRelease(dir);
export const releaseFile = (id: string, dir = releasesDir): string => releases.releaseFile(id, dir);
