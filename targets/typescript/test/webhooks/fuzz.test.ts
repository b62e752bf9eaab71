import { describe, expect, it } from "vitest";
import { type HmacChoice, verify, WebhookVerificationError } from "../../runtime/webhooks/index.js";
import { fixtures, KNOWN_EVENT_TYPES, prng, SIGNING, signedAt } from "./helpers.js";

interface Delivery {
  body: Uint8Array;
  headers: Record<string, string | string[]>;
  secret: string;
  /** The clock at signing time, inside the replay window. */
  now: () => number;
}

const encoder = new TextEncoder();
const SIGNATURE = "X-Service-Signature";

function bases(): Delivery[] {
  return fixtures.map((f) => ({
    body: encoder.encode(f.body),
    secret: f.secret,
    now: signedAt(f.body),
    headers: {
      [SIGNATURE]: f.signature,
      "X-Service-Event-ID": (JSON.parse(f.body) as { event_id: string }).event_id,
      "X-Service-Event": (JSON.parse(f.body) as { event_type: string }).event_type,
    },
  }));
}

type Mutation = (d: Delivery, rand: () => number) => Delivery;

const int = (rand: () => number, n: number) => Math.floor(rand() * n);
const pick = <T>(rand: () => number, list: readonly T[]): T => list[int(rand, list.length)]!;
/** The signature value to mutate; after an earlier step renamed or repeated the header, its first value or none. */
const signatureOf = (d: Delivery): string | undefined => {
  const value = d.headers[SIGNATURE];
  return Array.isArray(value) ? value[0] : value;
};
const withSignature = (d: Delivery, value: string | string[]): Delivery => ({ ...d, headers: { ...d.headers, [SIGNATURE]: value } });
const HEX = "0123456789abcdef";

const mutations: Record<string, Mutation> = {
  bodyBitFlip: (d, rand) => {
    const body = new Uint8Array(d.body);
    const flips = 1 + int(rand, 3);
    for (let i = 0; i < flips; i++) {
      const index = int(rand, body.length);
      body[index] = body[index]! ^ (1 << int(rand, 8));
    }
    // Three flips can cancel out; make sure the body did change.
    if (body.every((b, i) => b === d.body[i])) body[0] = body[0]! ^ 1;
    return { ...d, body };
  },
  bodyTruncate: (d, rand) => ({ ...d, body: d.body.slice(0, int(rand, d.body.length)) }),
  bodyExtend: (d, rand) => {
    const extra = pick(rand, [" ", "\n", "\r\n", "\t", "\0", "}", ",", "x", " {}"]);
    return { ...d, body: new Uint8Array([...d.body, ...encoder.encode(extra)]) };
  },
  bodyReserialise: (d, rand) => {
    const text = new TextDecoder().decode(d.body);
    const indent = pick(rand, [0, 1, 2, 3, 4, "\t"]);
    let again: string;
    try {
      again = JSON.stringify(JSON.parse(text), null, indent);
    } catch {
      again = `${text}\n`; // an earlier step broke the JSON
    }
    if (again === text) again = `${again}\n`;
    return { ...d, body: encoder.encode(again) };
  },
  signatureHexFlip: (d, rand) => {
    const signature = signatureOf(d);
    if (signature === undefined || signature.length < 71) return d;
    const index = 7 + int(rand, 64);
    const current = signature[index]!;
    const replacement = HEX.replace(current, "")[int(rand, 15)]!;
    return withSignature(d, signature.slice(0, index) + replacement + signature.slice(index + 1));
  },
  signatureTruncate: (d, rand) => {
    const signature = signatureOf(d);
    return signature === undefined ? d : withSignature(d, signature.slice(0, int(rand, signature.length)));
  },
  signatureExtend: (d, rand) => {
    const signature = signatureOf(d);
    return signature === undefined ? d : withSignature(d, signature + pick(rand, ["0", "a", "00", "=", ";", ",sha256=00"]));
  },
  signatureCase: (d, rand) => {
    const signature = signatureOf(d);
    if (signature === undefined) return d;
    const letters = [...signature.slice(7)].map((c, i) => (/[a-f]/.test(c) ? i + 7 : -1)).filter((i) => i >= 0);
    if (letters.length === 0 || rand() < 0.3)
      return withSignature(d, `${pick(rand, ["SHA256=", "Sha256=", "sHa256="])}${signature.slice(7)}`);
    const index = pick(rand, letters);
    return withSignature(d, signature.slice(0, index) + signature[index]!.toUpperCase() + signature.slice(index + 1));
  },
  signatureWhitespace: (d, rand) => {
    const signature = signatureOf(d);
    if (signature === undefined) return d;
    const space = pick(rand, [" ", "\t", "  ", "\u00a0"]);
    const at = pick(rand, [0, signature.length, 7, 6, 1 + int(rand, signature.length - 1)]);
    return withSignature(d, signature.slice(0, at) + space + signature.slice(at));
  },
  signaturePrefix: (d, rand) => {
    const prefix = pick(rand, [
      "",
      "sha256:",
      "sha-256=",
      "sha1=",
      "sha512=",
      "sha256==",
      "v1=",
      "sha256 =",
      "hmac-sha256=",
      "sha256=sha256=",
    ]);
    const signature = signatureOf(d);
    return signature === undefined ? d : withSignature(d, prefix + signature.slice(7));
  },
  signatureRepeated: (d, rand) => {
    const signature = signatureOf(d);
    if (signature === undefined) return d;
    const other = `sha256=${"0".repeat(64)}`;
    return withSignature(
      d,
      pick(rand, [[signature, other], [other, signature], [signature, signature], `${signature}, ${other}`, `${signature},${signature}`]),
    );
  },
  signatureHeaderRenamed: (d, rand) => {
    const { [SIGNATURE]: signature, ...rest } = d.headers;
    if (signature === undefined) return d;
    const name = pick(rand, [
      "X-Service-Signatur",
      "X-Service_Signature",
      "X-Signature",
      "Signature",
      "X-Service-Signature-256",
      "XService-Signature",
    ]);
    return { ...d, headers: { ...rest, [name]: signature! } };
  },
  wrongSecret: (d, rand) => {
    const chars = [...d.secret];
    const kind = int(rand, 3);
    if (kind === 0) {
      const index = int(rand, chars.length);
      chars[index] = String.fromCharCode(chars[index]!.charCodeAt(0) ^ (1 << int(rand, 7)) || 1);
    } else if (kind === 1) chars.splice(int(rand, chars.length), 1);
    // Printable only: HMAC pads short keys with zero bytes, so a secret plus trailing NULs is the same key.
    else chars.push(pick(rand, ["a", "Z", "0", "_", " ", "ß"]));
    return { ...d, secret: chars.join("") };
  },
};

const names = Object.keys(mutations);

function sameDelivery(a: Delivery, b: Delivery): boolean {
  return (
    a.secret === b.secret &&
    a.body.length === b.body.length &&
    a.body.every((byte, i) => byte === b.body[i]) &&
    JSON.stringify(Object.entries(a.headers).sort()) === JSON.stringify(Object.entries(b.headers).sort())
  );
}

async function expectRejected(d: Delivery, crypto: HmacChoice, label: string): Promise<string> {
  try {
    await verify(d.body, d.headers, d.secret, { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING, crypto, now: d.now });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw new Error(`${label}: unexpected ${String(error)}`);
    return error.code;
  }
  throw new Error(`${label}: a mutated delivery verified: ${JSON.stringify({ ...d, body: new TextDecoder().decode(d.body) })}`);
}

describe("fuzz: mutated deliveries never verify", () => {
  for (const [crypto, seed, cases] of [
    ["node", 0x5eed_0001, 3000],
    ["webcrypto", 0x5eed_0002, 600],
  ] as const) {
    it(`${cases} mutations, seed ${seed.toString(16)}, HMAC via ${crypto}`, async () => {
      const rand = prng(seed);
      const originals = bases();
      const used: Record<string, number> = {};
      const codes: Record<string, number> = {};
      let skipped = 0;
      for (let i = 0; i < cases; i++) {
        const original = pick(rand, originals);
        let delivery = original;
        const steps = rand() < 0.2 ? 2 : 1;
        const applied: string[] = [];
        for (let s = 0; s < steps; s++) {
          const name = pick(rand, names);
          delivery = mutations[name]!(delivery, rand);
          applied.push(name);
          used[name] = (used[name] ?? 0) + 1;
        }
        // Two steps can undo each other (truncate "}" then append "}"): such a case is not a mutation.
        if (sameDelivery(delivery, original)) {
          skipped++;
          continue;
        }
        const code = await expectRejected(delivery, crypto, `case ${i} (${applied.join(" + ")})`);
        codes[code] = (codes[code] ?? 0) + 1;
        if (steps === 1 && applied[0]!.startsWith("body")) expect(code, applied[0]).toBe("signature_mismatch");
      }
      expect(skipped).toBeLessThan(cases / 100);
      for (const name of names) expect(used[name] ?? 0, name).toBeGreaterThan(cases / names.length / 3);
      expect(Object.keys(codes).sort()).toEqual(["malformed_header", "missing_header", "signature_mismatch"]);
    });
  }

  it("control: the unmutated deliveries verify, whatever the case of the header names", async () => {
    const rand = prng(0x5eed_0003);
    for (let i = 0; i < 300; i++) {
      const d = pick(rand, bases());
      const headers = Object.fromEntries(
        Object.entries(d.headers).map(([name, value]) => [
          [...name].map((c) => (rand() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(""),
          value,
        ]),
      );
      const result = await verify(d.body, headers, d.secret, {
        knownEventTypes: KNOWN_EVENT_TYPES,
        signing: SIGNING,
        crypto: i % 2 ? "webcrypto" : "node",
        now: d.now,
      });
      expect(result.eventId).toBe(d.headers["X-Service-Event-ID"]);
    }
  });
});
