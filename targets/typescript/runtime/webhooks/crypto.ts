/**
 * HMAC-SHA256 behind one interface, with two implementations:
 * - `node`: node:crypto (`createHmac`, comparison with `timingSafeEqual`), found through `process.getBuiltinModule`
 *   so that this module never imports node:crypto statically and bundles for browsers unchanged;
 * - `webcrypto`: `crypto.subtle` (browsers, edge runtimes, Deno, Bun, Node), comparison with `crypto.subtle.verify`,
 *   which compares the MAC in constant time.
 * `"auto"` picks node:crypto when it is available and Web Crypto otherwise.
 */

export type HmacImplementationName = "node" | "webcrypto";

export interface HmacImplementation {
  readonly name: HmacImplementationName | (string & {});
  /** HMAC-SHA256 of `data` under `key`. */
  sign(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
  /** Whether `mac` is HMAC-SHA256 of `data` under `key`, compared in constant time. */
  verify(key: Uint8Array, data: Uint8Array, mac: Uint8Array): Promise<boolean>;
}

/** `"auto"` (default), a named implementation that must be available, or an implementation object. */
export type HmacChoice = "auto" | HmacImplementationName | HmacImplementation;

type NodeCrypto = typeof import("node:crypto");

const MAC_LENGTH = 32;

/** node:crypto of the running process, or undefined when there is none (browsers, most edge runtimes). */
export function loadNodeCrypto(processLike: unknown): NodeCrypto | undefined {
  if (typeof processLike !== "object" || processLike === null) return undefined;
  const getBuiltinModule = (processLike as { getBuiltinModule?: unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return undefined;
  try {
    const mod = getBuiltinModule.call(processLike, "node:crypto") as Partial<NodeCrypto> | undefined;
    return mod && typeof mod.createHmac === "function" && typeof mod.timingSafeEqual === "function" ? (mod as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
}

/** `crypto.subtle` of the running environment, or undefined (for example on plain http pages in browsers). */
export function loadSubtle(cryptoLike: unknown): SubtleCrypto | undefined {
  if (typeof cryptoLike !== "object" || cryptoLike === null) return undefined;
  const subtle = (cryptoLike as { subtle?: unknown }).subtle;
  return typeof subtle === "object" && subtle !== null ? (subtle as SubtleCrypto) : undefined;
}

export function createNodeHmac(nodeCrypto: NodeCrypto | undefined = loadNodeCrypto(runtimeGlobals().process)): HmacImplementation {
  if (!nodeCrypto) throw new Error("node:crypto is not available in this environment");
  const { createHmac, timingSafeEqual } = nodeCrypto;
  return {
    name: "node",
    async sign(key, data) {
      return new Uint8Array(createHmac("sha256", key).update(data).digest());
    },
    async verify(key, data, mac) {
      const expected = createHmac("sha256", key).update(data).digest();
      // The length is public (always 32 for a well-formed header); timingSafeEqual needs equal lengths.
      return mac.byteLength === expected.byteLength && timingSafeEqual(expected, mac);
    },
  };
}

export function createWebCryptoHmac(subtle: SubtleCrypto | undefined = loadSubtle(runtimeGlobals().crypto)): HmacImplementation {
  if (!subtle) throw new Error("Web Crypto (crypto.subtle) is not available in this environment");
  const importKey = (key: Uint8Array) =>
    subtle.importKey("raw", arrayBufferView(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  return {
    name: "webcrypto",
    async sign(key, data) {
      return new Uint8Array(await subtle.sign("HMAC", await importKey(key), arrayBufferView(data)));
    },
    async verify(key, data, mac) {
      if (mac.byteLength !== MAC_LENGTH) return false;
      // crypto.subtle.verify recomputes the MAC and compares it in constant time.
      return subtle.verify("HMAC", await importKey(key), arrayBufferView(mac), arrayBufferView(data));
    },
  };
}

/** Picks node:crypto when the environment has it, Web Crypto otherwise. `globals` exists for tests. */
export function detectHmac(globals: { process?: unknown; crypto?: unknown } = runtimeGlobals()): HmacImplementation {
  const nodeCrypto = loadNodeCrypto(globals.process);
  if (nodeCrypto) return createNodeHmac(nodeCrypto);
  const subtle = loadSubtle(globals.crypto);
  if (subtle) return createWebCryptoHmac(subtle);
  throw new Error("neither node:crypto nor Web Crypto (crypto.subtle) is available for HMAC-SHA256");
}

function runtimeGlobals(): { process?: unknown; crypto?: unknown } {
  return globalThis as { process?: unknown; crypto?: unknown };
}

const cache: Partial<Record<HmacImplementationName | "auto", HmacImplementation>> = {};

export function resolveHmac(choice: HmacChoice = "auto"): HmacImplementation {
  if (typeof choice === "object") return choice;
  const cached = cache[choice];
  if (cached) return cached;
  let created: HmacImplementation;
  if (choice === "node") created = createNodeHmac();
  else if (choice === "webcrypto") created = createWebCryptoHmac();
  else if (choice === "auto") created = detectHmac();
  else throw new TypeError(`unknown HMAC implementation ${JSON.stringify(choice)}`);
  cache[choice] = created;
  return created;
}

// ---------------------------------------------------------------------------------------------- byte helpers

const encoder = new TextEncoder();

/** UTF-8 bytes of a string; bytes are passed through unchanged. */
export function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

export function secretBytes(secret: string): Uint8Array {
  if (typeof secret !== "string" || secret.length === 0) throw new TypeError("webhook secret must be a non-empty string");
  return encoder.encode(secret);
}

const HEX = "0123456789abcdef";

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

/** Lowercase hex to bytes; the caller has checked the form. */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Web Crypto's BufferSource wants an ArrayBuffer-backed view; copy views over a SharedArrayBuffer. */
function arrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
