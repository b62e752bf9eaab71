// Header records of the runtime's requests, where a name may come in any case.

/** Sets a header, replacing any of the same name in another case. */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key in headers) if (key !== name && key.toLowerCase() === lower) delete headers[key];
  headers[name] = value;
}
