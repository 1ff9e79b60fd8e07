// First-party plugins by name, pinned by the package's plugins/first-party.json.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/index.js';
import { firstPartyPlugins } from '../../host/plugins/first-party.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { preToolUse } from '../plugins-firstparty/wasm.js';
import { cli } from '../cli/helpers.js';

describe('first-party plugins by name', () => {
  it('lists the first-party plugins (six in AssemblyScript, one in C) with their pins', async () => {
    const all = await firstPartyPlugins();
    expect(all.map((p) => p.name).sort()).toEqual(['budget', 'calc', 'guard-shell', 'path-guard', 'path-guard-c', 'require-verification', 'secret-redactor']);
    for (const p of all) expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('loadPlugin({ name }) loads and verifies guard-shell', async () => {
    const guard = await loadPlugin({ name: 'guard-shell' });
    try {
      const r = await guard.callHook(preToolUse('Bash', { command: 'rm -rf /' }));
      expect(r.ok && r.output.decision).toBe('deny');
    } finally {
      await guard.close();
    }
  });

  it('an unknown name lists the known ones; a caller pin that disagrees is INTEGRITY', async () => {
    await expect(loadPlugin({ name: 'guard-shel' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('guard-shell') });
    await expect(loadPlugin({ name: 'guard-shell', sha256: '0'.repeat(64) })).rejects.toMatchObject({ code: 'INTEGRITY' });
    await expect(loadPlugin({ name: '../etc/passwd' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('wasmhooks.json takes { "name" } and refuses two sources at once', () => {
    expect(parseConfig({ plugins: [{ name: 'guard-shell' }] }, { file: '/x/wasmhooks.json', dir: '/x' }).plugins?.[0]).toMatchObject({ name: 'guard-shell' });
    expect(() => parseConfig({ plugins: [{ name: 'guard-shell', path: 'a.wasm' }] }, { file: '/x/wasmhooks.json', dir: '/x' })).toThrow(/not "name" and "path"/);
  });

  it('plugin inspect guard-shell shows the pinned sha256', async () => {
    const r = await cli(['plugin', 'inspect', 'guard-shell']);
    expect(r.code).toBe(0);
    const pin = (await firstPartyPlugins()).find((p) => p.name === 'guard-shell')?.sha256;
    expect(r.stdout).toContain(`sha256    ${pin}`);
    expect(r.stdout).toContain("matches the package's pin");
  });
});
