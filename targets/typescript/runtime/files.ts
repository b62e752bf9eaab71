// File values accepted in request bodies, and their conversion to Blobs before the first attempt (so that a
// retry can send the same bytes again). A path reference is read through the "#read-file" import of the runtime's
// package.json: node:fs on Node, a clear refusal elsewhere, so that bundlers for browsers never meet node:fs.
import { RequestEncodingError } from "./errors.js";

/** Minimal shape of a Node.js Readable, checked structurally so that browsers never load node:stream. */
export interface NodeReadableLike extends AsyncIterable<unknown> {
  pipe: (...args: never[]) => unknown;
}

export type FileData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | NodeReadableLike;

/** A file on disk (Node only), read when the request is prepared. */
export interface FilePathRef {
  path: string;
  filename?: string;
  contentType?: string;
}

/** Bytes or a stream with a file name and content type. */
export interface FileDataRef {
  data: FileData;
  filename?: string;
  contentType?: string;
}

export type FileInput = FileData | FilePathRef | FileDataRef;

/** A file ready to be appended to a form: the bytes and the part's file name. */
export class PreparedFile {
  constructor(
    readonly blob: Blob,
    readonly filename: string,
  ) {}
}

const DEFAULT_FILENAME = "file";
const REF_KEYS: ReadonlySet<string> = new Set(["path", "data", "filename", "contentType"]);

function isNodeReadable(value: object): value is NodeReadableLike {
  return typeof (value as { pipe?: unknown }).pipe === "function" && Symbol.asyncIterator in value;
}

function isWebStream(value: object): value is ReadableStream<Uint8Array> {
  return typeof (value as { getReader?: unknown }).getReader === "function";
}

function isFileData(value: object): value is FileData {
  return value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value) || isWebStream(value) || isNodeReadable(value);
}

/** `{ path }` or `{ data }` objects whose keys are only path/data/filename/contentType. */
function fileRef(value: object): FilePathRef | FileDataRef | undefined {
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => REF_KEYS.has(key))) return undefined;
  const ref = value as Partial<FilePathRef & FileDataRef>;
  if (typeof ref.path === "string" && ref.data === undefined) return ref as FilePathRef;
  if (ref.data !== undefined && ref.path === undefined && typeof ref.data === "object" && ref.data !== null && isFileData(ref.data)) {
    return ref as FileDataRef;
  }
  return undefined;
}

/** True for every value the encoder treats as a file. */
export function isFileInput(value: unknown): value is FileInput {
  return typeof value === "object" && value !== null && (isFileData(value) || fileRef(value) !== undefined);
}

export async function prepareFile(value: FileInput): Promise<PreparedFile> {
  const ref = isFileData(value) ? undefined : fileRef(value);
  if (ref !== undefined && "path" in ref) {
    const { readFileBlob } = await import(/* webpackMode: "eager" */ "#read-file");
    const type = ref.contentType ?? "";
    try {
      return new PreparedFile(await readFileBlob(ref.path, type), ref.filename ?? baseName(ref.path));
    } catch (cause) {
      throw new RequestEncodingError(`cannot read the file ${JSON.stringify(ref.path)}`, { cause });
    }
  }
  const data = ref === undefined ? (value as FileData) : ref.data;
  const type = ref?.contentType;
  const filename = ref?.filename ?? (data instanceof File ? data.name : DEFAULT_FILENAME);
  return new PreparedFile(await toBlob(data, type), filename);
}

async function toBlob(data: FileData, type: string | undefined): Promise<Blob> {
  const options = type === undefined ? undefined : { type };
  if (data instanceof Blob) return type === undefined || type === data.type ? data : new Blob([data], options);
  if (data instanceof ArrayBuffer) return new Blob([data], options);
  // Blob copies the viewed bytes; the cast only drops the SharedArrayBuffer possibility from the view's type.
  if (ArrayBuffer.isView(data))
    return new Blob([new Uint8Array(data.buffer, data.byteOffset, data.byteLength) as Uint8Array<ArrayBuffer>], options);
  // Streams are read to the end once: a retry must be able to send the same bytes again.
  if (isWebStream(data)) return new Blob([await new Response(data).arrayBuffer()], options);
  const chunks: BlobPart[] = [];
  for await (const chunk of data) chunks.push(typeof chunk === "string" ? chunk : (chunk as Uint8Array<ArrayBuffer>));
  return new Blob(chunks, options);
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || DEFAULT_FILENAME;
}
