// Which hosts must not receive requests on a user's behalf: this machine, private and internal networks, cloud
// metadata services, and addresses that are not routable. One classifier for the client's subscription check and the
// mock service's delivery check. Written here rather than taken from a library (ipaddr.js and others were
// considered) because it has to judge host names and the IPv4 addresses embedded in IPv6 forms (mapped, NAT64,
// 6to4) the same way in Node and browsers, with no dependency for clients that install the runtime.
export type BlockedHostKind =
  | "localhost"
  | "loopback"
  | "unspecified"
  | "private"
  | "cgnat"
  | "link-local"
  | "unique-local"
  | "site-local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "benchmarking"
  | "metadata"
  | "internal-name";

export interface BlockedHost {
  kind: BlockedHostKind;
  /** Loopback (this machine): the only kind `allowLoopback` lets through. */
  loopback: boolean;
  description: string;
}

const DESCRIPTIONS: Record<BlockedHostKind, string> = {
  localhost: "localhost",
  loopback: "a loopback address",
  unspecified: "an unspecified address",
  private: "a private network address",
  cgnat: "a carrier-grade NAT (shared) address",
  "link-local": "a link-local address",
  "unique-local": "a unique local IPv6 address",
  "site-local": "a site-local IPv6 address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
  documentation: "a documentation address",
  benchmarking: "a benchmarking address",
  metadata: "a cloud metadata service",
  "internal-name": "an internal host name",
};

function blocked(kind: BlockedHostKind): BlockedHost {
  return { kind, loopback: kind === "loopback" || kind === "localhost", description: DESCRIPTIONS[kind] };
}

/** Cloud metadata endpoints: AWS/GCP/Azure/OCI/DigitalOcean, AWS ECS and EKS, Alibaba, Oracle Cloud Classic. */
const METADATA_IPV4 = new Set(["169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200", "192.0.0.192"]);
/** AWS instance metadata over IPv6 (fd00:ec2::254). */
const METADATA_IPV6 = [[0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]];
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);
/** Suffixes of names that only resolve inside a network: RFC 6761/6762/8375 and ICANN's .internal. */
const INTERNAL_SUFFIXES = [".internal", ".local", ".localdomain", ".home.arpa"];

/** [network, prefix length, kind]; the first match wins. */
const IPV4_RANGES: readonly (readonly [string, number, BlockedHostKind])[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"],
];

/**
 * Why a host must not receive webhooks, or undefined for an acceptable public host. Expects `URL.hostname`: the
 * WHATWG parser has already turned decimal, octal, hex and short IPv4 forms into dotted quads, lowercased and
 * IDNA-mapped names, and compressed IPv6 (inside brackets).
 */
export function classifyHost(hostname: string): BlockedHost | undefined {
  const host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) return classifyIpv6(host.slice(1, -1));
  const name = host.replace(/\.+$/, "");
  const ipv4 = parseIpv4(name);
  if (ipv4 !== undefined) return classifyIpv4(ipv4);
  if (name.includes(":")) return classifyIpv6(name);
  if (name === "localhost" || name.endsWith(".localhost") || name === "localhost.localdomain") return blocked("localhost");
  if (METADATA_NAMES.has(name)) return blocked("metadata");
  if (INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1))) return blocked("internal-name");
  // A name without a dot resolves only through the local resolver's search domains.
  if (!name.includes(".")) return blocked("internal-name");
  return undefined;
}

function parseIpv4(text: string): number | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return undefined;
  const parts = match.slice(1).map(Number);
  if (parts.some((part) => part > 255)) return undefined;
  return parts.reduce((acc, part) => acc * 256 + part, 0);
}

function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

function classifyIpv4(address: number): BlockedHost | undefined {
  if (METADATA_IPV4.has(formatIpv4(address))) return blocked("metadata");
  for (const [network, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    const base = parseIpv4(network)!;
    if (address >= base && address < base + size) return blocked(kind);
  }
  return undefined;
}

/** Eight 16-bit groups, or undefined when the text is not an IPv6 address. */
function parseIpv6(text: string): number[] | undefined {
  let groupsText = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const dotted = parseIpv4(text.slice(lastColon + 1));
  if (dotted !== undefined) {
    tail = [dotted >>> 16, dotted & 0xffff];
    groupsText = `${text.slice(0, lastColon + 1)}0`;
  } else if (text.slice(lastColon + 1).includes(".")) return undefined;
  const halves = groupsText.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (tail.length > 0) (rest.length > 0 ? rest : head).pop();
  const total = head.length + rest.length + tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  return [...head, ...new Array<number>(8 - total).fill(0), ...rest, ...tail];
}

function inPrefix(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIpv6(text: string): BlockedHost | undefined {
  const g = parseIpv6(text);
  if (!g) return blocked("reserved");
  const embedded = (high: number, low: number) => classifyIpv4((g[high]! * 0x10000 + g[low]!) >>> 0);
  if (METADATA_IPV6.some((m) => inPrefix(g, m, 128))) return blocked("metadata");
  if (inPrefix(g, [], 128)) return blocked("unspecified");
  if (inPrefix(g, [0, 0, 0, 0, 0, 0, 0, 1], 128)) return blocked("loopback");
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4
  // address that is reached in the end: judge that address.
  if (inPrefix(g, [0, 0, 0, 0, 0, 0xffff], 96) || inPrefix(g, [0, 0, 0, 0, 0xffff, 0], 96) || inPrefix(g, [0x64, 0xff9b], 96)) {
    return embedded(6, 7);
  }
  // Deprecated IPv4-compatible addresses (::a.b.c.d) and the rest of ::/8.
  if (inPrefix(g, [], 96)) return embedded(6, 7) ?? blocked("reserved");
  if (inPrefix(g, [], 8)) return blocked("reserved");
  if (inPrefix(g, [0x64, 0xff9b, 1], 48)) return blocked("private");
  if (inPrefix(g, [0x100], 64)) return blocked("reserved");
  if (inPrefix(g, [0x2001, 0x2], 48)) return blocked("benchmarking");
  if (inPrefix(g, [0x2001, 0xdb8], 32)) return blocked("documentation");
  // Teredo tunnels to an address that cannot be judged here.
  if (inPrefix(g, [0x2001, 0], 32)) return blocked("reserved");
  // 6to4 (2002:aabb:ccdd::) carries the IPv4 address aa.bb.cc.dd.
  if (inPrefix(g, [0x2002], 16)) return embedded(1, 2);
  if (inPrefix(g, [0x3fff], 20)) return blocked("documentation");
  if (inPrefix(g, [0xfc00], 7)) return blocked("unique-local");
  if (inPrefix(g, [0xfe80], 10)) return blocked("link-local");
  if (inPrefix(g, [0xfec0], 10)) return blocked("site-local");
  if (inPrefix(g, [0xff00], 8)) return blocked("multicast");
  return undefined;
}
