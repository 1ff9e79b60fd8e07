// What a user of the package meets first: clear errors for the wrong zod, base
// URLs with or without /v1, errors that name the URL called, package metadata.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z as z3 } from 'zod/v3';
import { anthropicModel } from '../../host/models/anthropic.js';
import { openaiModel } from '../../host/models/openai.js';
import { tool } from '../../host/tools/define.js';
import { collect, request } from '../models/helpers.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<string, unknown>;

describe('package hygiene', () => {
  it('a zod 3 schema gets a message that names zod 3, not a misleading one', () => {
    expect(() => tool('Echo', 'e', z3.object({ text: z3.string() }) as never, () => '')).toThrow(/zod 3.*zod 4/);
  });

  it('Anthropic base URL works with or without /v1; errors name the URL called', async () => {
    const seen: string[] = [];
    const fetchRecorder: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response('{"type":"error","error":{"type":"authentication_error","message":"bad key"}}', { status: 401 });
    };
    for (const baseURL of ['http://127.0.0.1:9/', 'http://127.0.0.1:9/v1']) {
      const events = await collect(anthropicModel({ model: 'claude-x', baseURL, fetch: fetchRecorder }).stream(request()));
      const error = events.find((e) => e.type === 'error');
      expect(error?.type === 'error' && error.error.message).toContain('http://127.0.0.1:9/v1/messages');
    }
    expect(seen).toEqual(['http://127.0.0.1:9/v1/messages', 'http://127.0.0.1:9/v1/messages']);
    const openai = await collect(openaiModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', fetch: fetchRecorder }).stream(request()));
    const e = openai.find((x) => x.type === 'error');
    expect(e?.type === 'error' && e.error.message).toContain('http://127.0.0.1:9/v1/chat/completions');
  });

  it('package.json: zod is a peer (^4), exports has default and ./package.json, metadata, prepack builds', () => {
    expect((pkg.peerDependencies as Record<string, string>).zod).toBe('^4.0.0');
    expect((pkg.dependencies as Record<string, string>).zod).toBeUndefined();
    const exp = pkg.exports as Record<string, unknown>;
    expect(exp['./package.json']).toBe('./package.json');
    expect((exp['.'] as Record<string, string>).default).toBe('./dist/index.js');
    expect(pkg.sideEffects).toBe(false);
    for (const k of ['repository', 'homepage', 'bugs', 'keywords']) expect(pkg[k], k).toBeTruthy();
    expect((pkg.scripts as Record<string, string>).prepack).toMatch(/build/);
    expect(pkg.files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'plugins/first-party.json', 'plugins/*/build/*.wasm']));
  });

  it('package.json: every subpath export is a tsup entry with declarations (., ./server, ./mcp, ./cli)', async () => {
    const source = readFileSync(new URL('../../tsup.config.ts', import.meta.url), 'utf8');
    const exp = pkg.exports as Record<string, unknown>;
    const paths = Object.keys(exp).filter((k) => k !== './package.json');
    expect(paths.sort()).toEqual(['.', './cli', './mcp', './server']);
    for (const path of paths) {
      const e = exp[path] as Record<string, string>;
      const name = /^\.\/dist\/(.+)\.js$/.exec(e.import ?? '')?.[1];
      expect(name, path).toBeTruthy();
      expect(e.default, path).toBe(e.import);
      expect(e.types, path).toBe(`./dist/${name}.d.ts`);
      // Named in tsup's PUBLIC entries (which also get declarations).
      expect(source, `${path}: tsup entry ${name}`).toMatch(new RegExp(`^\\s*'?${name}'?: 'host/`, 'm'));
    }
  });
});
