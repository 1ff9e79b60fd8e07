/**
 * The files of a new C plugin project (`wasmhooks plugin new <name> --lang c`):
 * the same guard and cases as the AssemblyScript scaffold (scaffold.ts),
 * written with the C SDK (sdk-c/wasmhooks.h, shipped in the wasmhooks package).
 * `wasmhooks plugin build` compiles it with clang + wasm-ld (host/cli/clang.ts).
 */
import { casesJsonl, useIt } from './scaffold.js';

const cName = (name: string) => name.replace(/-/g, '_');

const SOURCE = (name: string) => `// ${name}: a wasmhooks plugin, written in C with the wasmhooks C SDK (header-only, no libc).
// It denies git force-pushes from the shell and lets every other command through.
//   build:  wasmhooks plugin build        (clang + wasm-ld: apt-get install clang lld)
//   test:   wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl
#include "wasmhooks.h"

static bool is_force_push(wh_str command) {
  if (!wh_str_contains(command, "git push")) return false;
  return wh_str_contains(command, "--force") || wh_str_contains(command, " -f") || wh_str_contains(command, "+refs/") ||
         wh_str_contains(command, " +");
}

// Everything the SDK hands a handler (strings, JSON, concatenations) lives until the call returns.
static wh_hook_response check_bash(const wh_tool_use *call) {
  wh_str command = wh_json_get_string(call->input, "command");
  if (is_force_push(command)) {
    return wh_deny(wh_concat(3, WH_STR("${name}: force-pushing rewrites shared history; push without --force (command: "), command, WH_STR(")")));
  }
  return wh_continue();
}

// Runs at the start of every call: declare, do not compute.
void wasmhooks_plugin(wh_plugin *p) {
  wh_name(p, "${name}", "0.1.0");
  wh_description(p, "Denies git force-pushes from the shell.");
  // fail-closed: if this guard ever traps or times out, the call is denied, never silently allowed.
  wh_on_pre_tool_use(p, "Bash", check_bash, WH_FAILURE_POLICY_FAIL_CLOSED);
}
`;

const PACKAGE = (name: string) => ({
  name,
  version: '0.1.0',
  private: true,
  description: 'A wasmhooks plugin in C',
  scripts: {
    build: 'wasmhooks plugin build',
    test: `wasmhooks plugin build && wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl`,
  },
  // The C SDK ships inside wasmhooks (sdk-c/); clang and lld come from the system.
  devDependencies: { wasmhooks: '^0.1.0' },
});

const README = (name: string) => `# ${name}

A wasmhooks plugin in C: a guard that denies \`git push --force\` from the
agent's shell tool. Written with the wasmhooks C SDK (\`wasmhooks.h\`,
header-only, freestanding: no libc, no allocator to manage).

## Build and test

Needs clang and lld (\`wasm-ld\`): \`sudo apt-get install clang lld\` on
Debian/Ubuntu, \`brew install llvm lld\` on macOS.

\`\`\`sh
wasmhooks plugin build                                          # -> build/${name}.wasm, prints its sha256
wasmhooks plugin test build/${name}.wasm --events test/cases.jsonl
\`\`\`

\`plugin build\` compiles every \`src/*.c\` into one module with
\`clang --target=wasm32 -nostdlib -ffreestanding -mbulk-memory -O2\` and the
SDK's folder on the include path. \`test/cases.jsonl\` holds one case a line:
a hook input and what the plugin must decide. \`plugin test\` exits 5 when a
case fails.

${useIt(name)}
The ABI the SDK implements is in the wasmhooks repository's docs/abi.md.
`;

/** Relative path → contents. */
export function scaffoldFilesC(name: string): Record<string, string> {
  return {
    [`src/${cName(name)}.c`]: SOURCE(name),
    'test/cases.jsonl': casesJsonl(),
    'package.json': `${JSON.stringify(PACKAGE(name), null, 2)}\n`,
    'README.md': README(name),
    '.gitignore': 'build/\n',
  };
}
