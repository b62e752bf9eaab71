// Header records of the runtime's requests, where a name may come in any case.

/** Whether a header of that name is set, whatever its case. */
export function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  for (const key in headers) if (key.toLowerCase() === lower) return true;
  return false;
}

/** Sets a header, replacing any of the same name in another case. */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key in headers) if (key !== name && key.toLowerCase() === lower) delete headers[key];
  headers[name] = value;
}
