// Review rhttp: what the per-client caps count as one client (host/server/per-client.ts clientKey, clientOf). The
// same caps over each runtime's sockets and embedded servers: test/xrt/client-caps.xrt.ts.
import { describe, expect, it } from 'vitest';
import { clientKey, clientOf } from '../../host/server/per-client.js';

describe('clientKey: the range an address is picked from', () => {
  it('every loopback address is one client (127.0.0.0/8, ::1, mapped or not)', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '127.255.1.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.5', '::ffff:7f00:2']) expect(clientKey(a)).toBe('loopback');
  });

  it('an IPv4 address is itself, mapped into IPv6 or not', () => {
    expect(clientKey('10.0.0.7')).toBe('10.0.0.7');
    expect(clientKey('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(clientKey('::FFFF:a00:7')).toBe('10.0.0.7');
    expect(clientKey('10.0.0.8')).toBe('10.0.0.8');
  });

  it('an IPv6 address counts by its /56, whatever its spelling or zone', () => {
    expect(clientKey('2001:db8:1:1ff:abcd::2')).toBe('2001:db8:1:100::/56');
    expect(clientKey('2001:0DB8:0001:0100:0000:0000:0000:0001')).toBe('2001:db8:1:100::/56');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/56');
    expect(clientKey('2001:db8:1:200::1')).toBe('2001:db8:1:200::/56');
  });

  it('anything else is kept as given (a unix socket, a runtime\'s own name)', () => {
    expect(clientKey('/run/app.sock')).toBe('/run/app.sock');
  });
});

describe('clientOf: the address each runtime hands the app', () => {
  const request = new Request('http://127.0.0.1/event');
  it('reads our adapters, Deno.serve, Bun.serve and @hono/node-server; nothing in-process', () => {
    expect(clientOf(request, { remoteAddress: '10.0.0.1' })).toBe('10.0.0.1');
    expect(clientOf(request, { remoteAddr: { hostname: '10.0.0.2', port: 1, transport: 'tcp' }, completed: Promise.resolve() })).toBe('10.0.0.2');
    expect(clientOf(request, { requestIP: (r: Request) => (r === request ? { address: '::ffff:10.0.0.3', family: 'IPv6', port: 1 } : null) })).toBe('10.0.0.3');
    expect(clientOf(request, { incoming: { socket: { remoteAddress: '10.0.0.4' } }, outgoing: {} })).toBe('10.0.0.4');
    expect(clientOf(request, { requestIP: () => { throw new TypeError('not a request of this server'); } })).toBeUndefined();
    expect(clientOf(request, undefined)).toBeUndefined();
    expect(clientOf(request, {})).toBeUndefined();
  });
});
