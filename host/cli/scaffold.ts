/**
 * The files of a new plugin project (`wasmhooks plugin new <name>`): a guard
 * written with the guest SDK, a cases file that `plugin test` checks, and a
 * README. The project builds and passes its test as generated.
 */

const SOURCE = (name: string) => `// ${name}: a wasmhooks plugin, written with the guest SDK (AssemblyScript).
// It denies git force-pushes from the shell and lets every other command through.
//   build:  wasmhooks plugin build
//   test:   wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl
import { plugin, deny, continue_, ToolUse, HookResponse, FailurePolicy } from "@wasmhooks/sdk-guest";

function isForcePush(command: string): bool {
  if (!command.includes("git push")) return false;
  return command.includes("--force") || command.includes(" -f") || command.includes("+refs/") || command.includes(" +");
}

// Handlers are top-level functions: AssemblyScript has no closures.
function checkBash(call: ToolUse): HookResponse {
  const command = call.input.getString("command");
  if (isForcePush(command)) return deny("${name}: force-pushing rewrites shared history; push without --force (command: " + command + ")");
  return continue_();
}

plugin("${name}", "0.1.0")
  .description("Denies git force-pushes from the shell.")
  // fail-closed: if this guard ever traps or times out, the call is denied, never silently allowed.
  .onPreToolUse("Bash", checkBash, FailurePolicy.FAIL_CLOSED);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
`;

const preToolUse = (command: string, id: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: 'test',
  cwd: '/workspace',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: id,
});

const CASES = [
  { input: preToolUse('git push --force origin main', 't1'), expect: { decision: 'deny', reason: 'force-pushing' } },
  { input: preToolUse('git push -f', 't2'), expect: { decision: 'deny' } },
  { input: preToolUse('git push origin main', 't3'), expect: { decision: 'continue' } },
  { input: preToolUse('ls -la', 't4'), expect: { decision: 'continue' } },
  {
    input: { ...preToolUse('', 't5'), tool_name: 'Read', tool_input: { file_path: '/workspace/README.md' } },
    expect: { decision: 'unbound' },
  },
];

const PACKAGE = (name: string) => ({
  name,
  version: '0.1.0',
  private: true,
  description: 'A wasmhooks plugin',
  type: 'module',
  scripts: {
    build: 'wasmhooks plugin build',
    test: `wasmhooks plugin build && wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl`,
  },
  devDependencies: { '@extism/as-pdk': '1.0.0', '@wasmhooks/sdk-guest': '^0.1.0', assemblyscript: '0.28.20', wasmhooks: '^0.1.0' },
});

const README = (name: string) => `# ${name}

A [wasmhooks](https://github.com/) plugin: a guard that denies \`git push --force\`
from the agent's shell tool. Written in AssemblyScript with the guest SDK.

## Build and test

\`\`\`sh
wasmhooks plugin build                                          # -> build/${name}.wasm, prints its sha256
wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl
\`\`\`

\`test/cases.jsonl\` holds one case a line: a hook input and what the plugin
must decide (\`decision\`, text the \`reason\` must contain, an \`updatedInput\`,
or \`"unbound"\` when no binding should match). \`plugin test\` exits 5 when a
case fails.

Real inputs make the best cases: record a session, then replay it.

\`\`\`sh
wasmhooks run "tidy the repo" --record session.jsonl --plugin build/${name}.wasm
wasmhooks plugin test build/${name}.wasm --events session.jsonl
wasmhooks plugin test build/${name}.wasm --events session.jsonl --against old/${name}.wasm   # what changed?
\`\`\`

${useIt(name)}
\`wasmhooks plugin inspect build/${name}.wasm\` shows what it binds and asks for.
`;

/** The README's "Use it" section, the same in the C scaffold (scaffold-c.ts). */
export const useIt = (name: string): string => `## Use it

\`\`\`json
{ "plugins": [{ "path": "./build/${name}.wasm", "sha256": "<printed by plugin build>" }] }
\`\`\`

in \`wasmhooks.json\`, or \`wasmhooks run "…" --plugin build/${name}.wasm\`.`;

/** The cases every scaffold passes as generated, one JSON object a line. */
export const casesJsonl = (): string => `${CASES.map((c) => JSON.stringify(c)).join('\n')}\n`;

/** Relative path → contents. */
export function scaffoldFiles(name: string): Record<string, string> {
  return {
    'assembly/index.ts': SOURCE(name),
    'assembly/tsconfig.json': `${JSON.stringify({ extends: 'assemblyscript/std/assembly.json', include: ['./**/*.ts'] }, null, 2)}\n`,
    'test/cases.jsonl': casesJsonl(),
    'package.json': `${JSON.stringify(PACKAGE(name), null, 2)}\n`,
    'README.md': README(name),
    '.gitignore': 'build/\nnode_modules/\n',
  };
}
