// POST /plugins downloads only from public addresses (host/server/plugin-url.ts): every spelling of an inward address.
import { describe, expect, it } from 'vitest';
import { checkPluginUrl, isPrivateAddress } from '../../host/server/plugin-url.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.1.2', '10.1.2.3', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', 'fe80::1', 'fd00::1', 'fc00::', 'ff02::1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '::127.0.0.1', '0:0:0:0:0:0:0:1',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));
  // Outside global unicast (2000::/3) nothing is public: site-local, local-use NAT64 (RFC 8215, which a
  // translator maps to any IPv4, the private ones too), SIIT's ::ffff:0:0/96, discard, reserved and
  // unassigned space; inside it, Teredo (an IPv4 behind a relay) and 3fff::/20 (documentation).
  it.each(['fec0::1', 'feff::1', '64:ff9b:1::a00:1', '::ffff:0:a00:1', '::ffff:0:7f00:1', '100::1', '400::1', '4000::1', '5f00::1', 'e000::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '3fff::1'])(
    '%s (outside the public unicast space) is private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );
  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::1', '3ffe::1', '64:ff9b::808:808'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false));
  it.each(['localhost', 'example.com', '1.2.3', '1::2::3', '12345::'])('%s is not an address', (text) => expect(isPrivateAddress(text)).toBeUndefined());
});

describe('checkPluginUrl', () => {
  it.each([
    'http://127.0.0.1:8080/x.wasm', 'http://2130706433/x.wasm', 'http://0x7f.1/x.wasm', 'http://127.1/x.wasm', 'http://[::1]/x.wasm',
    'http://[::ffff:127.0.0.1]/x.wasm', 'http://169.254.169.254/latest/meta-data', 'http://localhost/x.wasm', 'http://LocalHost/x.wasm',
  ])('refuses %s (403)', async (url) => {
    await expect(checkPluginUrl(url)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/not a public address/) });
  });
  it.each(['file:///etc/passwd', 'data:application/wasm;base64,AGFzbQ==', 'ftp://example.com/x.wasm'])('refuses the scheme of %s (400)', async (url) => {
    await expect(checkPluginUrl(url)).rejects.toMatchObject({ code: 'validation' });
  });
  it('refuses a name that does not resolve (nothing to check) with a 400', async () => {
    await expect(checkPluginUrl('http://LOCALHOST./x.wasm')).rejects.toMatchObject({ code: expect.stringMatching(/^(validation|forbidden)$/) });
    await expect(checkPluginUrl('http://no-such-host.invalid/x.wasm')).rejects.toMatchObject({ code: 'validation' });
  });
  it('lets a public address literal through, and returns it as the address to connect to', async () => {
    await expect(checkPluginUrl('https://93.184.216.34/x.wasm')).resolves.toBe('93.184.216.34');
    await expect(checkPluginUrl('https://[2606:4700::1111]/x.wasm')).resolves.toBe('2606:4700::1111');
  });
  it('resolves a name once, with the given resolver, and returns its first address (DNS rebinding: the download connects there)', async () => {
    const asked: string[] = [];
    const resolve = async (name: string) => (asked.push(name), ['93.184.216.34', '2606:4700::1111']);
    await expect(checkPluginUrl('https://Example.COM/x.wasm', { resolve })).resolves.toBe('93.184.216.34');
    expect(asked).toEqual(['example.com']);
  });
  it('refuses a name when any one of its addresses is private, whatever the order', async () => {
    for (const answer of [['93.184.216.34', '10.0.0.1'], ['169.254.169.254', '93.184.216.34'], ['fe80::1%eth0']]) {
      await expect(checkPluginUrl('https://example.com/x.wasm', { resolve: async () => answer })).rejects.toMatchObject({ code: 'forbidden' });
    }
  });
  it('refuses an empty or malformed answer from a resolver', async () => {
    await expect(checkPluginUrl('https://example.com/x.wasm', { resolve: async () => [] })).rejects.toMatchObject({ code: 'validation' });
    await expect(checkPluginUrl('https://example.com/x.wasm', { resolve: async () => ['example.org'] })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(checkPluginUrl('https://example.com/x.wasm', { resolve: async () => { throw new Error('SERVFAIL'); } })).rejects.toMatchObject({ code: 'validation' });
  });
  it('lets the exact addresses of pluginUrlAllow through (any IPv6 spelling), and nothing beside them', async () => {
    const allow = ['10.0.0.5', 'fd00::5'];
    await expect(checkPluginUrl('http://10.0.0.5/x.wasm', { allow })).resolves.toBe('10.0.0.5');
    await expect(checkPluginUrl('http://[fd00:0:0::0005]/x.wasm', { allow })).resolves.toBe('fd00::5');
    await expect(checkPluginUrl('http://10.0.0.6/x.wasm', { allow })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(checkPluginUrl('http://x.test/x.wasm', { allow, resolve: async () => ['10.0.0.5', '10.0.0.6'] })).rejects.toMatchObject({ code: 'forbidden' });
  });
});
