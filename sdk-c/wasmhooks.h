/*
 * wasmhooks.h: write wasmhooks plugins (hooks, tools, stop-handlers) in C.
 * Header-only, freestanding (no libc), no dependencies: clang + wasm-ld.
 *
 *   #include "wasmhooks.h"
 *
 *   static wh_hook_response check(const wh_tool_use *call) {
 *     wh_str command = wh_json_get_string(call->input, "command");
 *     if (wh_str_contains(command, "rm -rf /")) return wh_deny("refusing to delete the root filesystem");
 *     return wh_continue();
 *   }
 *
 *   void wasmhooks_plugin(wh_plugin *p) {
 *     wh_name(p, "my-guard", "1.0.0");
 *     wh_on_pre_tool_use(p, "Bash", check, WH_FAILURE_POLICY_FAIL_CLOSED);
 *   }
 *
 * Build: clang --target=wasm32 -nostdlib -ffreestanding -mbulk-memory -O2 \
 *          -I<this folder> -Wl,--no-entry -o my-guard.wasm my-guard.c
 * (or `wasmhooks plugin build` in a project made by `wasmhooks plugin new --lang c`).
 *
 * Layers, each usable alone: extism.h (the Extism ABI), wasmhooks/text.h (arena,
 * strings, buffers), wasmhooks/wire.h (protobuf wire), wasmhooks/hooks.pb.h (the protocol's messages,
 * generated), wasmhooks/json-check.h (validating JSON), wasmhooks/json.h (reading
 * it), wasmhooks/plugin.h (declaring the plugin, decisions, config, log),
 * wasmhooks/exports.h (describe/hook/tool).
 * Memory: everything the SDK hands you lives until the call returns; keep
 * state across calls in your own static variables. docs/abi.md has the ABI.
 */
#ifndef WASMHOOKS_H
#define WASMHOOKS_H

#include "wasmhooks/exports.h"

#endif /* WASMHOOKS_H */
