/**
 * IP address literals, parsed one way for every check that takes one: the
 * address a pinned download connects to (`PluginSource.address`), the
 * server's `pluginUrlAllow` list, and the public/private check of plugin
 * URLs (server/plugin-url.ts). A loose pattern (`[0-9a-f.:]+`) let `1.2.3`
 * or `:::::` through as addresses, to fail later and elsewhere.
 */
import { z } from 'zod';

/** The 32-bit number of a dotted IPv4 address (four decimal octets), or undefined. */
export function v4Number(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** The 16 bytes of an IPv6 address (no brackets, no zone), or undefined. */
export function v6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  let tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1] as string);
    if (n === undefined) return undefined;
    tail = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    text = `${text.slice(0, dotted.index)}:0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0] as string);
  const rest = halves.length === 2 ? groups(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Whether `text` is an IPv4 address (dotted) or an IPv6 address (no brackets, no zone). */
export function isIpAddress(text: string): boolean {
  return v4Number(text) !== undefined || v6Bytes(text) !== undefined;
}

/** An IP address literal, as options and sources take it. */
export const ipAddressSchema = z.string().max(45).refine(isIpAddress, 'must be an IPv4 or IPv6 address (no brackets, no zone)');
