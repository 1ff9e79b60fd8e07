/*
 * plugin.h: what a plugin author writes against. Declare the plugin in
 * `void wasmhooks_plugin(wh_plugin *p)` (name, bindings with matchers, tools,
 * grants); handlers return decisions built with wh_allow/wh_deny/...; the
 * exports `describe`, `hook` and `tool` (exports.h) do the protocol.
 * The same shape as the AssemblyScript SDK (sdk-guest/).
 */
#ifndef WASMHOOKS_PLUGIN_H
#define WASMHOOKS_PLUGIN_H

#include "hooks.pb.h"
#include "json.h"

/** The protocol major this SDK speaks. */
#define WH_PROTOCOL_VERSION 1

/* Text arguments take a string literal, a `const char *` or a wh_str. */
static inline wh_str wh__str_id(wh_str s) { return s; }
#define wh_text(x) _Generic((x), wh_str: wh__str_id, char *: wh_cstr, const char *: wh_cstr)(x)

/* ---- what handlers receive ------------------------------------------------- */

/** PreToolUse and PermissionRequest: a tool call about to run. */
typedef struct wh_tool_use {
  const wh_hook_request *request;
  int32_t event;
  wh_str tool_name;
  /** The tool input, validated; `{}` when the host sent none. */
  wh_json input;
  wh_str input_json;
  /** Never NULL (zeroed when the host sent none). */
  const wh_hook_context *context;
  /**
   * PreToolUse: true on a re-check, the second round of PreToolUse hooks on a call whose input
   * was rewritten after they judged it (by a later hook or the permission answer). `input` is
   * then the input that will run; the round can only refuse the call. False on a first round.
   */
  bool recheck;
} wh_tool_use;

/** PostToolUse and PostToolUseFailure: a tool call that finished. */
typedef struct wh_tool_result {
  const wh_hook_request *request;
  int32_t event;
  wh_str tool_name;
  wh_json input;
  wh_str input_json;
  /** The tool's output as JSON text (a JSON string for text output). */
  wh_str output_json;
  /** The error message when the call failed; empty otherwise. */
  wh_str error;
  bool failed;
  const wh_hook_context *context;
} wh_tool_result;

/** A call of one of the plugin's own tools (the `tool` export). */
typedef struct wh_tool_invocation {
  wh_str name;
  wh_json input;
  wh_str input_json;
  const wh_hook_context *context;
} wh_tool_invocation;

typedef wh_hook_response (*wh_tool_use_fn)(const wh_tool_use *call);
typedef wh_hook_response (*wh_tool_result_fn)(const wh_tool_result *result);
typedef wh_hook_response (*wh_request_fn)(const wh_hook_request *request);
typedef wh_tool_response (*wh_tool_fn)(const wh_tool_invocation *call);

/* ---- decisions ------------------------------------------------------------- */

static inline wh_hook_response wh__verdict(int32_t decision, wh_str reason) {
  wh_hook_response r = {0};
  r.decision = decision;
  r.reason = reason;
  return r;
}
/** No opinion; the next hook runs. */
#define wh_continue() wh__verdict(WH_DECISION_CONTINUE, (wh_str){0, 0})
/** Allow the tool call without asking for permission. */
#define wh_allow(reason) wh__verdict(WH_DECISION_ALLOW, wh_text(reason))
/** Refuse the call or the prompt; the reason goes to the model. */
#define wh_deny(reason) wh__verdict(WH_DECISION_DENY, wh_text(reason))
/** Ask the user even if a rule would allow the call. */
#define wh_ask(reason) wh__verdict(WH_DECISION_ASK, wh_text(reason))
/** End the turn. */
#define wh_stop(reason) wh__verdict(WH_DECISION_STOP, wh_text(reason))
/** Stop hooks: do not stop yet; the reason is added to the conversation. */
#define wh_block(reason) wh__verdict(WH_DECISION_BLOCK, wh_text(reason))

static inline wh_hook_response wh__with(wh_hook_response r, int which, wh_str text) {
  switch (which) {
    case 0: r.additional_context = text; break;
    case 1: r.system_message = text; break;
    case 2: r.updated_input_json = text; break;
    case 3: r.updated_output_json = text; break;
    case 5: r.updated_permissions_json = text; break;
    default: r.reason = text;
  }
  return r;
}
/** Text added to the model's context for its next turn: `wh_with_context(wh_deny("x"), "hint")`. */
#define wh_with_context(r, text) wh__with((r), 0, wh_text(text))
/** A message shown to the user, not the model. */
#define wh_with_system_message(r, text) wh__with((r), 1, wh_text(text))
/** PreToolUse: the tool input to use instead (a JSON object). */
#define wh_with_updated_input(r, json) wh__with((r), 2, wh_text(json))
/** PostToolUse: the tool output to use instead (JSON). */
#define wh_with_updated_output(r, json) wh__with((r), 3, wh_text(json))
#define wh_with_reason(r, text) wh__with((r), 4, wh_text(text))
/** PermissionRequest, on wh_allow only: Claude Code's updatedPermissions (a JSON array of PermissionUpdate). */
#define wh_with_updated_permissions(r, json) wh__with((r), 5, wh_text(json))
/** No opinion on permission, but run the tool with this input instead. */
#define wh_rewrite(json) wh_with_updated_input(wh_continue(), json)

static inline wh_tool_response wh__tool_response(wh_str text, bool is_error) {
  wh_tool_response r = {0};
  r.content = text;
  r.is_error = is_error;
  return r;
}
/** A tool's successful result: text (or JSON) for the model. */
#define wh_tool_result_text(text) wh__tool_response(wh_text(text), false)
/** A tool's failure: the message goes to the model as an error result. */
#define wh_tool_error(text) wh__tool_response(wh_text(text), true)

/* ---- the plugin ------------------------------------------------------------ */

#ifndef WH_MAX_BINDINGS
#define WH_MAX_BINDINGS 32
#endif
#ifndef WH_MAX_TOOLS
#define WH_MAX_TOOLS 32
#endif
#ifndef WH_MAX_GRANTS
#define WH_MAX_GRANTS 16
#endif

typedef enum { WH__ON_REQUEST, WH__ON_TOOL_USE, WH__ON_TOOL_RESULT } wh__handler_kind;

typedef struct wh_plugin {
  wh_str name, version, description;
  wh_hook_binding bindings[WH_MAX_BINDINGS];
  wh__handler_kind kinds[WH_MAX_BINDINGS];
  union {
    wh_request_fn on_request;
    wh_tool_use_fn on_tool_use;
    wh_tool_result_fn on_tool_result;
  } handlers[WH_MAX_BINDINGS];
  uint32_t binding_count;
  wh_tool_spec tools[WH_MAX_TOOLS];
  wh_tool_fn tool_fns[WH_MAX_TOOLS];
  uint32_t tool_count;
  wh_str network_hosts[WH_MAX_GRANTS], file_paths[WH_MAX_GRANTS], config_keys[WH_MAX_GRANTS];
  wh_grants grants;
  /** Set when a registration did not fit; describe then fails saying so. */
  const char *overflow;
} wh_plugin;

/** The author's declaration, run at the start of every call (so it must be cheap and always the same). */
void wasmhooks_plugin(wh_plugin *p);

static inline void wh__name(wh_plugin *p, wh_str name, wh_str version) {
  p->name = name;
  p->version = version;
}
/** Names the plugin: `wh_name(p, "my-guard", "1.0.0")`. Required. */
#define wh_name(p, name, version) wh__name((p), wh_text(name), wh_text(version))
/** One line shown by hosts. */
#define wh_description(p, text) ((p)->description = wh_text(text))

static inline uint32_t wh__bind(wh_plugin *p, int32_t event, wh_str matcher, int32_t policy, wh__handler_kind kind) {
  if (p->binding_count >= WH_MAX_BINDINGS) {
    p->overflow = "more hook bindings than WH_MAX_BINDINGS (define it higher before including wasmhooks.h)";
    return WH_MAX_BINDINGS;
  }
  uint32_t i = p->binding_count++;
  p->bindings[i] = (wh_hook_binding){.event = event, .matcher = matcher, .failure_policy = policy};
  p->kinds[i] = kind;
  return i;
}
static inline void wh__on_tool_use(wh_plugin *p, int32_t event, wh_str matcher, wh_tool_use_fn fn, int32_t policy) {
  uint32_t i = wh__bind(p, event, matcher, policy, WH__ON_TOOL_USE);
  if (i < WH_MAX_BINDINGS) p->handlers[i].on_tool_use = fn;
}
static inline void wh__on_tool_result(wh_plugin *p, int32_t event, wh_str matcher, wh_tool_result_fn fn, int32_t policy) {
  uint32_t i = wh__bind(p, event, matcher, policy, WH__ON_TOOL_RESULT);
  if (i < WH_MAX_BINDINGS) p->handlers[i].on_tool_result = fn;
}
static inline void wh__on(wh_plugin *p, int32_t event, wh_request_fn fn, wh_str matcher, int32_t policy) {
  uint32_t i = wh__bind(p, event, matcher, policy, WH__ON_REQUEST);
  if (i < WH_MAX_BINDINGS) p->handlers[i].on_request = fn;
}

/* matcher: a regular expression the host applies to the whole tool name ("" for every tool).
 * policy: WH_FAILURE_POLICY_FAIL_CLOSED / _FAIL_OPEN, or 0 for the event's default. */
#define wh_on_pre_tool_use(p, matcher, fn, policy) wh__on_tool_use((p), WH_HOOK_EVENT_PRE_TOOL_USE, wh_text(matcher), (fn), (policy))
#define wh_on_permission_request(p, matcher, fn, policy) wh__on_tool_use((p), WH_HOOK_EVENT_PERMISSION_REQUEST, wh_text(matcher), (fn), (policy))
#define wh_on_post_tool_use(p, matcher, fn, policy) wh__on_tool_result((p), WH_HOOK_EVENT_POST_TOOL_USE, wh_text(matcher), (fn), (policy))
#define wh_on_post_tool_use_failure(p, matcher, fn, policy) wh__on_tool_result((p), WH_HOOK_EVENT_POST_TOOL_USE_FAILURE, wh_text(matcher), (fn), (policy))
/** Any event, with the raw request: `wh_on(p, WH_HOOK_EVENT_STOP, keep_going, "", 0)`. */
#define wh_on(p, event, fn, matcher, policy) wh__on((p), (event), (fn), wh_text(matcher), (policy))

static inline void wh__tool(wh_plugin *p, wh_str name, wh_str description, wh_str schema, wh_tool_fn fn) {
  if (p->tool_count >= WH_MAX_TOOLS) {
    p->overflow = "more tools than WH_MAX_TOOLS (define it higher before including wasmhooks.h)";
    return;
  }
  p->tools[p->tool_count] = (wh_tool_spec){.name = name, .description = description, .input_schema_json = schema};
  p->tool_fns[p->tool_count++] = fn;
}
/** A tool the model can call: its input arrives as JSON matching `schema_json` (a JSON Schema). */
#define wh_tool(p, name, description, schema_json, fn) wh__tool((p), wh_text(name), wh_text(description), wh_text(schema_json), (fn))

static inline void wh__grant(wh_plugin *p, wh_str *list, uint32_t *count, wh_str value) {
  if (*count >= WH_MAX_GRANTS) {
    p->overflow = "more requested grants of one kind than WH_MAX_GRANTS";
    return;
  }
  list[(*count)++] = value;
}
/* Grants the plugin asks for; the operator decides, and the plugin does not load without them. */
#define wh_request_network_host(p, host) wh__grant((p), (p)->network_hosts, &(p)->grants.network_hosts_count, wh_text(host))
#define wh_request_file_path(p, path) wh__grant((p), (p)->file_paths, &(p)->grants.file_paths_count, wh_text(path))
#define wh_request_config_key(p, key) wh__grant((p), (p)->config_keys, &(p)->grants.config_keys_count, wh_text(key))

/* ---- the host -------------------------------------------------------------- */

/** The operator's value for config key `key`; .ptr is NULL when it is not set or not granted. */
static inline wh_str wh_config(const char *key) {
  ExtismHandle value = extism_config_get(extism_block_cstr(key));
  if (!value) return (wh_str){0, 0};
  uint32_t n = (uint32_t)extism_length(value);
  uint8_t *bytes = (uint8_t *)wh_alloc(n ? n : 1);
  extism_block_read(value, bytes, n);
  extism_free(value);
  return (wh_str){bytes, n};
}
/** The value of config key `key`, or `fallback` when it is not set, not granted or only whitespace. */
static inline wh_str wh_config_or(const char *key, const char *fallback) {
  wh_str v = wh_config(key);
  return wh_str_trim(v).len ? v : wh_cstr(fallback);
}

/** A line in the host's plugin log. */
static inline void wh__log(wh_str text) {
  ExtismHandle block = extism_block_from(text.ptr, text.len);
  extism_log_info(block);
  extism_free(block);
}
#define wh_log(text) wh__log(wh_text(text))

__attribute__((import_module("wasmhooks:host"), import_name("progress"))) extern void wh__host_progress(ExtismHandle message);
/** From inside a tool: becomes a tool.progress event (text or JSON). */
static inline void wh__progress(wh_str text) {
  ExtismHandle block = extism_block_from(text.ptr, text.len);
  wh__host_progress(block);
  extism_free(block);
}
#define wh_progress(text) wh__progress(wh_text(text))

#endif /* WASMHOOKS_PLUGIN_H */
