// Result files: `/job/download/{token}` below the base address, or a full URL found in a result. URLs below the
// base address get the Authorization header; URLs of other origins (signed links) are fetched without it.
import { SdkError } from "./errors.js";
import type { ResponseMeta } from "./model.js";

export interface Download {
  /** From Content-Disposition, else the last path segment of a foreign URL; undefined when neither says. */
  fileName: string | undefined;
  contentType: string | undefined;
  /** Content-Length when the service sent it. */
  size: number | undefined;
  /** The body; read it once, either here or through blob(). */
  stream: ReadableStream<Uint8Array>;
  blob(): Promise<Blob>;
  meta: ResponseMeta;
}

/** Where a download goes: the token path below the base address, or another origin. */
export type DownloadTarget =
  | { kind: "token"; token: string }
  | { kind: "foreign"; origin: string; path: string; fallbackName: string | undefined };

const DOWNLOAD_PATH = "/job/download/";

export function downloadTarget(tokenOrUrl: string, baseUrl: string): DownloadTarget {
  if (!/^https?:\/\//i.test(tokenOrUrl)) {
    if (tokenOrUrl === "" || tokenOrUrl.includes("/")) throw new SdkError("download needs a token or a full http(s) URL");
    return { kind: "token", token: tokenOrUrl };
  }
  const prefix = `${baseUrl}${DOWNLOAD_PATH}`;
  if (tokenOrUrl.startsWith(prefix)) {
    const token = decodeURIComponent(tokenOrUrl.slice(prefix.length).split(/[?#]/)[0] ?? "");
    if (token !== "" && !token.includes("/")) return { kind: "token", token };
  }
  const url = new URL(tokenOrUrl);
  const last = url.pathname.split("/").pop();
  return {
    kind: "foreign",
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    fallbackName: last ? decodeURIComponent(last) : undefined,
  };
}

/** The file name of a Content-Disposition header; `filename*` (RFC 5987) wins over `filename`. */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (header === null) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2] !== undefined) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const value = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function toDownload(stream: ReadableStream<Uint8Array>, meta: ResponseMeta, fallbackName: string | undefined): Download {
  const length = meta.headers.get("content-length");
  const contentType = meta.headers.get("content-type") ?? undefined;
  return {
    fileName: fileNameFromDisposition(meta.headers.get("content-disposition")) ?? fallbackName,
    contentType,
    size: length === null ? undefined : Number(length),
    stream,
    blob: () => new Response(stream, contentType === undefined ? undefined : { headers: { "content-type": contentType } }).blob(),
    meta,
  };
}
