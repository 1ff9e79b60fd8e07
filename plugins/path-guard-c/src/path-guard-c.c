/*
 * path-guard-c: file tools may only touch paths inside the configured
 * workspace. A port of plugins/path-guard (AssemblyScript) to the C SDK,
 * decision for decision: the same test table runs against both builds
 * (test/plugins-firstparty/path-guard.test.ts). Every deny reason reads
 * "path-guard: <rule>: <why>" so the model can correct itself.
 */
#include "wasmhooks.h"

/** The tools this guard watches; documented in plugins/path-guard/README.md. */
#define FILE_TOOLS "Read|Write|Edit|MultiEdit|NotebookEdit|NotebookRead|Glob|Grep|LS"
#define CONFIG_KEY "workspace"
#define MAX_ROOTS 64

static const char *const PATH_FIELDS[] = {"file_path", "path", "notebook_path"};

/* ---- lexical paths (no file system: symlinks are the tool's or the host's business) ---- */

/** Calls `each(segment)` for the segments of `path` split on '/'. */
typedef struct segments {
  wh_str *items;
  uint32_t count;
} segments;

static segments split(wh_str path, uint8_t sep) {
  segments out = {(wh_str *)wh_alloc((path.len + 1) * sizeof(wh_str)), 0};
  uint32_t start = 0;
  for (uint32_t i = 0; i <= path.len; i++) {
    if (i == path.len || path.ptr[i] == sep) {
      out.items[out.count++] = wh_str_slice(path, start, i);
      start = i + 1;
    }
  }
  return out;
}

static wh_str join(const wh_str *items, uint32_t count, const char *sep, bool leading) {
  wh_buf b = {0};
  if (leading) wh_buf_cstr(&b, sep);
  for (uint32_t i = 0; i < count; i++) {
    if (i) wh_buf_cstr(&b, sep);
    wh_buf_str(&b, items[i]);
  }
  return b.len ? wh_buf_view(&b) : WH_STR("");
}

/** normalize("/work", "../a//./b/") == "/a/b"; ".." above the root stays at the root, as the kernel does. */
static wh_str normalize(wh_str cwd, wh_str path) {
  wh_str joined = path.len && path.ptr[0] == '/' ? path : wh_concat(3, cwd, WH_STR("/"), path);
  segments parts = split(joined, '/');
  wh_str *out = (wh_str *)wh_alloc((parts.count + 1) * sizeof(wh_str));
  uint32_t n = 0;
  for (uint32_t i = 0; i < parts.count; i++) {
    wh_str seg = parts.items[i];
    if (seg.len == 0 || wh_str_eq_cstr(seg, ".")) continue;
    if (wh_str_eq_cstr(seg, "..")) {
      if (n) n--;
      continue;
    }
    out[n++] = seg;
  }
  return n ? join(out, n, "/", true) : WH_STR("/");
}

/** Does `path` (normalised) equal `root` (normalised) or lie below it? */
static bool is_within(wh_str root, wh_str path) {
  if (wh_str_eq_cstr(root, "/")) return true;
  return wh_str_eq(path, root) || (path.len > root.len && path.ptr[root.len] == '/' && wh_str_eq(wh_str_slice(path, 0, root.len), root));
}

static bool has_dot_dot(wh_str path) {
  segments parts = split(path, '/');
  for (uint32_t i = 0; i < parts.count; i++)
    if (wh_str_eq_cstr(parts.items[i], "..")) return true;
  return false;
}

static bool has_glob_char(wh_str s) {
  for (uint32_t i = 0; i < s.len; i++)
    if (s.ptr[i] == '*' || s.ptr[i] == '?' || s.ptr[i] == '[' || s.ptr[i] == '{') return true;
  return false;
}

/** The literal directory part of a glob pattern: the segments before the first one with `*?[{`. */
static wh_str glob_base(wh_str pattern) {
  segments parts = split(pattern, '/');
  uint32_t n = 0;
  while (n < parts.count && !has_glob_char(parts.items[n])) n++;
  wh_str base = join(parts.items, n, "/", false);
  return base.len == 0 && wh_str_starts_with(pattern, "/") ? WH_STR("/") : base;
}

/* ---- the workspace config value ---- */

typedef struct workspace {
  wh_str roots[MAX_ROOTS];
  uint32_t count;
  wh_str problem;
} workspace;

/** Absolute paths separated by ',', ':' or newlines. Missing, empty or relative entries are a problem, never "allow everything". */
static void read_workspace(workspace *ws) {
  wh_str raw = wh_config(CONFIG_KEY);
  ws->count = 0;
  ws->problem = WH_STR("");
  if (wh_str_trim(raw).len == 0) {
    ws->problem = WH_STR("config key \"workspace\" is not set (grant it and set it to the absolute workspace paths, e.g. /work/app,/tmp/scratch)");
    return;
  }
  uint32_t start = 0;
  for (uint32_t i = 0; i <= raw.len; i++) {
    if (i < raw.len && raw.ptr[i] != ',' && raw.ptr[i] != ':' && raw.ptr[i] != '\n') continue;
    wh_str entry = wh_str_trim(wh_str_slice(raw, start, i));
    start = i + 1;
    if (entry.len == 0) continue;
    if (entry.ptr[0] != '/') {
      ws->problem = wh_concat(3, WH_STR("workspace entry \""), entry, WH_STR("\" is not an absolute path"));
      ws->count = 0;
      return;
    }
    if (ws->count == MAX_ROOTS) {
      ws->problem = WH_STR("config key \"workspace\" lists more than 64 paths");
      ws->count = 0;
      return;
    }
    ws->roots[ws->count++] = normalize(WH_STR("/"), entry);
  }
  if (ws->count == 0) ws->problem = WH_STR("config key \"workspace\" lists no paths");
}

/* ---- the guard ---- */

static wh_hook_response refuse(const char *rule, wh_str why) {
  return wh_deny(wh_concat(4, WH_STR("path-guard: "), wh_cstr(rule), WH_STR(": "), why));
}

/** Sets *deny and returns true when `raw` (as the model wrote it) is outside the workspace. */
static bool check_path(wh_str field, wh_str raw, wh_str cwd, const workspace *ws, wh_hook_response *deny) {
  for (uint32_t i = 0; i < raw.len; i++)
    if (raw.ptr[i] == 0) return *deny = refuse("nul-byte", wh_concat(2, field, WH_STR(" contains a NUL byte"))), true;
  if (wh_str_starts_with(raw, "~")) {
    *deny = refuse("home-tilde", wh_concat(4, field, WH_STR(" \""), raw,
                                           WH_STR("\" starts with ~, which file tools do not expand; use an absolute path inside the workspace")));
    return true;
  }
  if (!wh_str_starts_with(raw, "/") && !wh_str_starts_with(cwd, "/")) {
    *deny = refuse("no-cwd", wh_concat(4, field, WH_STR(" \""), raw, WH_STR("\" is relative and the session has no absolute cwd to resolve it against")));
    return true;
  }
  wh_str abs = normalize(cwd, raw);
  for (uint32_t i = 0; i < ws->count; i++)
    if (is_within(ws->roots[i], abs)) return false;
  *deny = refuse(has_dot_dot(raw) ? "dotdot-escape" : "outside-workspace",
                 wh_concat(8, field, WH_STR(" \""), raw, WH_STR("\" resolves to "), abs, WH_STR(", outside the workspace ("),
                           join(ws->roots, ws->count, ", ", false), WH_STR(")")));
  return true;
}

static wh_hook_response check_call(const wh_tool_use *call) {
  workspace *ws = (workspace *)wh_alloc(sizeof(workspace));
  read_workspace(ws);
  if (ws->problem.len) return refuse("no-workspace", ws->problem);
  wh_str cwd = call->context->cwd;
  wh_hook_response deny;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < sizeof PATH_FIELDS / sizeof PATH_FIELDS[0]; i++) {
    wh_json v = wh_json_get(call->input, PATH_FIELDS[i]);
    if (!wh_json_present(v) || wh_json_is_null(v)) continue;
    if (!wh_json_is_string(v)) return refuse("bad-input", wh_concat(2, wh_cstr(PATH_FIELDS[i]), WH_STR(" is not a string")));
    wh_str path = wh_json_string(v);
    if (path.len == 0) continue;
    seen++;
    if (check_path(wh_cstr(PATH_FIELDS[i]), path, cwd, ws, &deny)) return deny;
  }
  // Glob patterns carry paths too: `../../etc/*` or `/etc/**` escape on their own.
  wh_str pattern = wh_json_get_string(call->input, "pattern");
  if (wh_str_eq_cstr(call->tool_name, "Glob") && pattern.len) {
    if (has_dot_dot(pattern)) return refuse("dotdot-escape", wh_concat(3, WH_STR("glob pattern \""), pattern, WH_STR("\" has a .. segment")));
    if (wh_str_starts_with(pattern, "/") || wh_str_starts_with(pattern, "~")) {
      if (check_path(WH_STR("pattern"), glob_base(pattern), cwd, ws, &deny)) return deny;
    }
  }
  /* A call without a path acts on the cwd (Glob, Grep, LS default to it). */
  if (seen == 0) {
    if (!wh_str_starts_with(cwd, "/")) return refuse("no-cwd", wh_concat(2, call->tool_name, WH_STR(" has no path and the session has no absolute cwd")));
    if (check_path(WH_STR("cwd"), cwd, cwd, ws, &deny)) return deny;
  }
  return wh_continue();
}

void wasmhooks_plugin(wh_plugin *p) {
  wh_name(p, "path-guard-c", "1.0.0");
  wh_description(p, "Confines file tools (" FILE_TOOLS ") to the workspace paths in config key \"workspace\"");
  wh_on_pre_tool_use(p, FILE_TOOLS, check_call, WH_FAILURE_POLICY_FAIL_CLOSED);
  wh_request_config_key(p, CONFIG_KEY);
}
