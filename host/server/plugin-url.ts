/**
 * Where `POST /plugins` may download from. The server fetches the URL a
 * client names, from inside the network it runs in: without a check, any
 * API client could make it reach what only the server can — a cloud
 * metadata service (169.254.169.254), an admin port on loopback, a host on
 * the private network — and learn from the answer (status, size, the
 * digest in a pin mismatch, how long a connection took). So the URL must
 * be http(s) and its host a public address: a literal is checked as it is,
 * a name by every address it resolves to. Redirects are refused by the
 * download itself (`redirect: 'error'`), as a public URL could redirect
 * inward. The name is resolved once, here: every download of the load
 * connects to the address returned (plugins/pinned-fetch.ts), so a name
 * re-pointed after the check (DNS rebinding by the name's owner) cannot
 * send it inward.
 */
import { v4Number, v6Bytes } from '../plugins/ip-address.js';
import { ApiError } from './errors.js';

/** IPv4 ranges that are not the public internet (RFC 6890 and friends), as [first octets, prefix length]. */
const V4_PRIVATE: readonly [number, number, number, number, number][] = [
  [0, 0, 0, 0, 8], // "this network"
  [10, 0, 0, 0, 8],
  [100, 64, 0, 0, 10], // carrier-grade NAT
  [127, 0, 0, 0, 8],
  [169, 254, 0, 0, 16], // link-local, cloud metadata
  [172, 16, 0, 0, 12],
  [192, 0, 0, 0, 24],
  [192, 0, 2, 0, 24],
  [192, 88, 99, 0, 24],
  [192, 168, 0, 0, 16],
  [198, 18, 0, 0, 15], // benchmarking
  [198, 51, 100, 0, 24],
  [203, 0, 113, 0, 24],
  [224, 0, 0, 0, 4], // multicast
  [240, 0, 0, 0, 4], // reserved, broadcast
];

function privateV4(n: number): boolean {
  return V4_PRIVATE.some(([a, b, c, d, bits]) => {
    const base = ((a * 256 + b) * 256 + c) * 256 + d;
    const size = 2 ** (32 - bits);
    return n >= base && n < base + size;
  });
}

function privateV6(b: number[]): boolean {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4At = (i: number) => (((b[i] as number) * 256 + (b[i + 1] as number)) * 65536 + (b[i + 2] as number) * 256 + (b[i + 3] as number));
  if (zeros(0, 10) && b[10] === 255 && b[11] === 255) return privateV4(v4At(12)); // ::ffff:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return privateV4(v4At(12)); // NAT64 64:ff9b::/96
  // Only global unicast (2000::/3) is public: everything else is loopback, unspecified, the deprecated
  // ::a.b.c.d, SIIT (::ffff:0:a.b.c.d), local-use NAT64 (64:ff9b:1::/48, translated to any IPv4),
  // discard, unique local, link- and site-local, multicast, or not assigned at all.
  if ((b[0] as number) >> 5 !== 1) return true;
  if (b[0] === 0x20 && b[1] === 0x02) return privateV4(v4At(2)); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return true; // Teredo: an IPv4 behind a relay
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return true; // documentation
  if (b[0] === 0x3f && b[1] === 0xff && ((b[2] as number) & 0xf0) === 0) return true; // documentation 3fff::/20
  return false;
}

/** Whether an IP address (v4 dotted, or v6 without brackets) is outside the public internet; undefined when it is not an address. */
export function isPrivateAddress(address: string): boolean | undefined {
  const v4 = v4Number(address);
  if (v4 !== undefined) return privateV4(v4);
  const v6 = v6Bytes(address.replace(/%.*$/, ''));
  return v6 === undefined ? undefined : privateV6(v6);
}

/** How plugin URL names are resolved, and the private addresses an operator lets them reach anyway. */
export interface PluginNetwork {
  /** Every address of a name (default: the system resolver, `all`, `verbatim`). */
  resolve?: (hostname: string) => Promise<readonly string[]>;
  /** Exact IP addresses allowed although not public (an internal registry). */
  allow?: readonly string[];
}

async function systemResolve(hostname: string): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}

/** Canonical text of an address for the allow-list (IPv6 in full lower-case groups), or the text itself. */
function canonical(address: string): string {
  const v6 = v6Bytes(address);
  return v6 ? v6.map((b) => b.toString(16).padStart(2, '0')).join('') : address;
}

/**
 * Throws the API's 400/403 unless `url` is an http(s) URL whose host is (and resolves only to) public
 * addresses; returns the address the download must connect to (the first), so the name is resolved once.
 */
export async function checkPluginUrl(url: string, network: PluginNetwork = {}): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('validation', `url must be http: or https:, not ${parsed.protocol}`, 'body.url');
  }
  // The WHATWG parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const refuse = (address: string) =>
    new ApiError(
      'forbidden',
      `plugin URL host ${JSON.stringify(parsed.hostname)} ${address === host ? 'is' : `resolves to ${address}, which is`} not a public address; ` +
        'plugins from loopback or the private network are loaded at start-up (config) or by path, not over HTTP',
    );
  const allowed = new Set((network.allow ?? []).map(canonical));
  const blocked = (address: string) => isPrivateAddress(address) !== false && !allowed.has(canonical(address.replace(/%.*$/, '')));
  if (isPrivateAddress(host) !== undefined) {
    if (blocked(host)) throw refuse(host);
    return host;
  }
  let addresses: readonly string[];
  try {
    addresses = await (network.resolve ?? systemResolve)(host);
  } catch {
    throw new ApiError('validation', `plugin URL host ${JSON.stringify(parsed.hostname)} does not resolve`, 'body.url');
  }
  if (!Array.isArray(addresses) || addresses.length === 0) {
    throw new ApiError('validation', `plugin URL host ${JSON.stringify(parsed.hostname)} does not resolve`, 'body.url');
  }
  // A resolver's answer that is not an address at all (a custom resolver's bug) counts as private.
  for (const address of addresses) if (typeof address !== 'string' || blocked(address)) throw refuse(String(address));
  return (addresses[0] as string).replace(/%.*$/, '');
}
