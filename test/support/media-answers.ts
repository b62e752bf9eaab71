// What a server answers per path to the clients of the media descriptions of test/matrix (media-form-urlencoded,
// media-star-json, media-json-suffix), the same for every target's test.
import type { Answer } from "./wire.js";

/** What the server answers per path: JSON under `application/json` and bytes under `application/octet-stream`. */
export const MEDIA_ANSWERS: Readonly<Record<string, Answer>> = {
  "/charges": { status: 200, type: "application/json", body: '{"id":"ch_1"}' },
  "/notes": { status: 204 },
  "/info.0.json": { status: 200, type: "application/json", body: '{"num":614,"title":"Woodpecker"}' },
  "/comics": { status: 200, type: "application/json", body: '[{"num":1},{"num":2}]' },
  "/raw": { status: 200, type: "application/octet-stream", body: '{"not":"parsed"}' },
  "/untyped": { status: 200, type: "application/octet-stream", body: "%PDF-1.7" },
  "/things/1": { status: 200, type: "application/vnd.things+json", body: '{"name":"b"}' },
  "/legacy": { status: 200, type: "text/json", body: '{"name":"old"}' },
};
