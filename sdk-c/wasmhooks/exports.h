/*
 * exports.h: the three exports every wasmhooks plugin has, in the Extism ABI.
 *   describe: (empty)     -> PluginInfo
 *   hook:     HookRequest -> HookResponse
 *   tool:     ToolRequest -> ToolResponse
 * Each call starts with an empty arena and the author's wasmhooks_plugin().
 * Bad input or a bad declaration fails the call with a message (Extism's
 * error_set), never a trap: the host then applies the binding's failure policy.
 * Define WASMHOOKS_NO_EXPORTS in every file but one when a plugin has several.
 */
#ifndef WASMHOOKS_EXPORTS_H
#define WASMHOOKS_EXPORTS_H

#include "plugin.h"

static wh_plugin wh__plugin;

static inline int32_t wh__fail_call(wh_str message) {
  extism_error_set(extism_block_from(message.ptr, message.len));
  return 1;
}

/** A fresh call: empty arena, the plugin declared again. */
static inline wh_plugin *wh__begin(void) {
  wh_arena_reset();
  __builtin_memset(&wh__plugin, 0, sizeof wh__plugin);
  wasmhooks_plugin(&wh__plugin);
  return &wh__plugin;
}

static inline wh_str wh__input(void) {
  uint32_t n = (uint32_t)extism_input_length();
  uint8_t *bytes = (uint8_t *)wh_alloc(n ? n : 1);
  extism_input_read(bytes, 0, n);
  return (wh_str){bytes, n};
}

#define WH__OUTPUT(T, message)                                   \
  do {                                                           \
    uint32_t size_ = T##_size(message);                          \
    uint8_t *bytes_ = (uint8_t *)wh_alloc(size_ ? size_ : 1);    \
    extism_output(bytes_, (uint64_t)(T##_write(message, bytes_) - bytes_)); \
  } while (0)

/** Parses JSON text for a handler; empty text is `{}`. */
static inline bool wh__input_json(wh_str text, const char *what, wh_json *out, wh_str *error) {
  if (text.len == 0) text = WH_STR("{}");
  const char *why = 0;
  if (wh_json_parse(text, out, &why)) return true;
  *error = wh_concat(3, wh_cstr(what), WH_STR(" is not valid JSON: "), wh_cstr(why));
  return false;
}

/** The proto name of an event, or "HookEvent <n>" for a value this SDK does not know. */
static inline wh_str wh__event_label(int32_t event) {
  const char *name = wh_hook_event_name(event);
  if (name) return wh_cstr(name);
  wh_buf b = {0};
  wh_buf_cstr(&b, "HookEvent ");
  wh_buf_int(&b, event);
  return wh_buf_view(&b);
}

/**
 * The binding this request is for: `binding_index`, an index into describe's
 * bindings (the handlers in registration order). The host has already applied
 * the matcher and runs the chain, so the guest neither matches nor chains; an
 * index out of range or naming a binding of another event fails the call
 * (the same rule as the AssemblyScript SDK).
 */
static inline bool wh__binding_for(const wh_plugin *p, const wh_hook_request *request, uint32_t *index, wh_str *error) {
  uint32_t i = request->binding_index;
  wh_buf b = {0};
  if (i >= p->binding_count) {
    wh_buf_cstr(&b, "binding_index ");
    wh_buf_int(&b, i);
    wh_buf_cstr(&b, " is out of range: plugin ");
    wh_buf_str(&b, p->name);
    wh_buf_cstr(&b, " has ");
    wh_buf_int(&b, p->binding_count);
    wh_buf_cstr(&b, " bindings");
  } else if (p->bindings[i].event != request->event) {
    wh_buf_cstr(&b, "binding_index ");
    wh_buf_int(&b, i);
    wh_buf_cstr(&b, " is a ");
    wh_buf_str(&b, wh__event_label(p->bindings[i].event));
    wh_buf_cstr(&b, " binding, but the request is ");
    wh_buf_str(&b, wh__event_label(request->event));
  } else {
    *index = i;
    return true;
  }
  *error = wh_buf_view(&b);
  return false;
}

static inline bool wh__run_binding(const wh_plugin *p, uint32_t i, const wh_hook_request *request, wh_hook_response *out, wh_str *error) {
  static const wh_hook_context no_context;
  const wh_hook_context *context = request->context ? request->context : &no_context;
  switch (p->kinds[i]) {
    case WH__ON_REQUEST:
      *out = p->handlers[i].on_request(request);
      return true;
    case WH__ON_TOOL_USE: {
      const wh_tool_use_payload *use = request->payload_case == 12 ? request->tool_use : 0;
      if (!use) {
        *error = wh_concat(3, WH_STR("a "), wh__event_label(request->event), WH_STR(" request without a tool_use payload"));
        return false;
      }
      wh_tool_use call = {request, request->event, use->tool_name, {{0, 0}}, use->tool_input_json, context, use->recheck};
      if (!wh__input_json(use->tool_input_json, "tool_input_json", &call.input, error)) return false;
      *out = p->handlers[i].on_tool_use(&call);
      return true;
    }
    case WH__ON_TOOL_RESULT: {
      const wh_tool_result_payload *res = request->payload_case == 13 ? request->tool_result : 0;
      if (!res) {
        *error = wh_concat(3, WH_STR("a "), wh__event_label(request->event), WH_STR(" request without a tool_result payload"));
        return false;
      }
      wh_tool_result result = {request, request->event, res->tool_name, {{0, 0}}, res->tool_input_json, res->tool_output_json, res->error,
                               request->event == WH_HOOK_EVENT_POST_TOOL_USE_FAILURE, context};
      if (!wh__input_json(res->tool_input_json, "tool_input_json", &result.input, error)) return false;
      *out = p->handlers[i].on_tool_result(&result);
      return true;
    }
  }
  *error = WH_STR("unknown handler kind");
  return false;
}

#ifndef WASMHOOKS_NO_EXPORTS

EXTISM_EXPORT(describe) int32_t wh__describe(void) {
  wh_plugin *p = wh__begin();
  if (!p->name.len) return wh__fail_call(WH_STR("describe: the plugin never called wh_name(p, name, version) in wasmhooks_plugin()"));
  if (p->overflow) return wh__fail_call(wh_concat(2, WH_STR("describe: "), wh_cstr(p->overflow)));
  p->grants.network_hosts = p->network_hosts;
  p->grants.file_paths = p->file_paths;
  p->grants.config_keys = p->config_keys;
  wh_plugin_info info = {
      .name = p->name,
      .version = p->version,
      .protocol_version = WH_PROTOCOL_VERSION,
      .hooks = p->bindings,
      .hooks_count = p->binding_count,
      .tools = p->tools,
      .tools_count = p->tool_count,
      .grants = (p->grants.network_hosts_count || p->grants.file_paths_count || p->grants.config_keys_count) ? &p->grants : 0,
      .description = p->description,
  };
  WH__OUTPUT(wh_plugin_info, &info);
  return 0;
}

EXTISM_EXPORT(hook) int32_t wh__hook(void) {
  wh_plugin *p = wh__begin();
  wh_str input = wh__input();
  wh_wire_error wire;
  wh_reader r = wh_reader_of(input.ptr, input.len, &wire);
  wh_hook_request *request = (wh_hook_request *)wh_alloc_zeroed(sizeof *request);
  if (!wh_hook_request_decode(&r, request)) return wh__fail_call(wh_concat(2, WH_STR("hook: input is not a valid HookRequest: "), wire.message));
  wh_hook_response response = wh_continue();
  uint32_t i = 0;
  wh_str error = {0, 0};
  if (!wh__binding_for(p, request, &i, &error) || !wh__run_binding(p, i, request, &response, &error)) {
    return wh__fail_call(wh_concat(2, WH_STR("hook: "), error));
  }
  /* A handler that left the decision unset meant "no opinion". */
  if (response.decision == WH_DECISION_UNSPECIFIED) response.decision = WH_DECISION_CONTINUE;
  WH__OUTPUT(wh_hook_response, &response);
  return 0;
}

EXTISM_EXPORT(tool) int32_t wh__tool_export(void) {
  wh_plugin *p = wh__begin();
  wh_str input = wh__input();
  wh_wire_error wire;
  wh_reader r = wh_reader_of(input.ptr, input.len, &wire);
  wh_tool_request *request = (wh_tool_request *)wh_alloc_zeroed(sizeof *request);
  if (!wh_tool_request_decode(&r, request)) return wh__fail_call(wh_concat(2, WH_STR("tool: input is not a valid ToolRequest: "), wire.message));
  for (uint32_t i = 0; i < p->tool_count; i++) {
    if (!wh_str_eq(p->tools[i].name, request->name)) continue;
    static const wh_hook_context no_context;
    wh_tool_invocation call = {request->name, {{0, 0}}, request->input_json, request->context ? request->context : &no_context};
    wh_str error = {0, 0};
    wh_str what = wh_concat(2, WH_STR("input_json of tool "), request->name);
    wh_buf label = {0};
    wh_buf_str(&label, what);
    wh_buf_byte(&label, 0);
    if (!wh__input_json(request->input_json, (const char *)label.ptr, &call.input, &error)) return wh__fail_call(wh_concat(2, WH_STR("tool: "), error));
    wh_tool_response response = p->tool_fns[i](&call);
    WH__OUTPUT(wh_tool_response, &response);
    return 0;
  }
  return wh__fail_call(wh_concat(5, WH_STR("tool: plugin "), p->name, WH_STR(" has no tool named \""), request->name, WH_STR("\"")));
}

#endif /* WASMHOOKS_NO_EXPORTS */
#endif /* WASMHOOKS_EXPORTS_H */
