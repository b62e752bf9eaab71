// The "#read-file" import outside Node: there is no file system to read a `{ path }` reference from.

/** Always rejects: reading a file by path needs Node. Pass the bytes (`{ data }`, a Blob or a stream) instead. */
export function readFileBlob(path: string, _type: string): Promise<Blob> {
  return Promise.reject(new Error(`cannot read ${JSON.stringify(path)}: a file path can be read on Node only; pass its bytes as { data }`));
}
