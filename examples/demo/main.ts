// `npm run demo`: one agent run on the offline scripted model, guarded and
// helped by real WASM plugins built from plugins/, rendered as the CLI does.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHost, loadPlugin, scriptedModel, type PluginOptions } from '../../host/index.js';
import { EventRenderer } from '../../host/cli/render.js';
import { turns } from './script.js';
import { tools, WORKSPACE } from './workspace.js';

const root = new URL('../../', import.meta.url);
const wasm = (name: string) => new URL(`plugins/${name}/build/${name}.wasm`, root).pathname;

const plugins: Array<[string, PluginOptions?]> = [
  ['guard-shell'],
  ['path-guard', { grants: { configKeys: ['workspace'] }, config: { workspace: WORKSPACE } }],
  ['secret-redactor'],
  ['require-verification'],
  ['budget', { grants: { configKeys: ['max_iterations'] }, config: { max_iterations: '12' } }],
  ['calc'],
];

if (plugins.some(([name]) => !existsSync(wasm(name)))) {
  console.log('Building the plugins from source (once)…');
  execFileSync(process.execPath, [new URL('scripts/build-plugins.mjs', root).pathname], { stdio: 'inherit' });
}

const loaded = await Promise.all(plugins.map(([name, options]) => loadPlugin({ path: wasm(name) }, options)));
console.log(`Loaded ${loaded.map((p) => `${p.name}@${p.info.version}`).join(', ')} (sandboxed: ${loaded[0]!.limits.timeoutMs} ms deadline, fuel and memory caps per call)\n`);

const host = createHost({
  model: scriptedModel({ turns, delayMs: 15 }),
  tools,
  plugins: loaded,
  cwd: WORKSPACE,
  allowedTools: ['Bash', 'Read', 'calc'],
});

const out = process.stdout;
const renderer = new EventRenderer({ out, color: out.isTTY === true && !process.env.NO_COLOR, spinner: out.isTTY === true });
for await (const event of host.session().stream('Tidy up this workspace.')) renderer.render(event);
renderer.close();

await Promise.all(loaded.map((p) => p.close()));
