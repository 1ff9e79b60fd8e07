import { UNSAFE_CHARS_SOURCE } from '../unsafe-chars.js';

/** The console page's script (plain browser JS, kept as a string). */
export const consoleScript = String.raw`
const $ = (id) => document.getElementById(id);
const state = { token: sessionStorage.getItem('wasmhooks.token') || '', selected: null, sessions: new Map(), logs: new Map(), requests: new Map(), hooks: [], lastId: undefined, controller: null };
$('token').value = state.token;
const headers = (json) => Object.assign(state.token ? { authorization: 'Bearer ' + state.token } : {}, json ? { 'content-type': 'application/json' } : {});
async function api(method, path, body) {
  const res = await fetch(path, { method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { setStatus('error: ' + ((data.error && data.error.message) || res.status)); throw new Error(res.status); }
  return data;
}
function setStatus(text) { $('status').textContent = text; }
// Every text shown is the model's, a tool's or a plugin's: a bidi override (U+202E) reorders what the
// operator reads in a tool call they approve; controls are shown as \uXXXX, as the CLI shows them (rv13).
// The set is host/unsafe-chars.ts (zero-width characters, lone surrogates, … too), as the CLI's.
const UNSAFE = new RegExp(${JSON.stringify(UNSAFE_CHARS_SOURCE)}, 'g');
const escaped = (c) => { const n = c.length === 2 ? c.codePointAt(0) : c.charCodeAt(0); return n > 0xffff ? '\\u{' + n.toString(16) + '}' : '\\u' + n.toString(16).padStart(4, '0'); };
const shown = (text) => String(text).replace(UNSAFE, escaped);
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = shown(text); return e; }
function logOf(id) { if (!state.logs.has(id)) state.logs.set(id, []); return state.logs.get(id); }
function add(id, cls, text) { const log = logOf(id); log.push({ cls, text }); if (id === state.selected) renderLog(); }
function renderSessions() {
  const ul = $('sessions'); ul.replaceChildren();
  for (const s of state.sessions.values()) {
    const li = el('li', s.id === state.selected ? 'sel' : '', s.title || s.id.slice(0, 8));
    li.dataset.id = s.id; li.append(el('span', 'st', s.state || ''));
    li.onclick = () => { state.selected = s.id; renderSessions(); renderLog(); };
    ul.append(li);
  }
}
function renderLog() {
  const box = $('log'); box.replaceChildren();
  for (const r of logOf(state.selected)) box.append(el('div', 'row ' + r.cls, r.text));
  box.scrollTop = box.scrollHeight;
}
function renderRequests() {
  const box = $('requests'); box.replaceChildren();
  if (state.requests.size === 0) box.append(el('div', 'end', 'none'));
  for (const r of state.requests.values()) {
    const d = el('div', 'req'); d.dataset.request = r.id; d.dataset.subtype = r.subtype;
    const who = ' · session ' + r.sessionId.slice(0, 8) + (r.payload.agentId ? ' · ' + r.payload.agentId : '');
    if (r.subtype === 'elicitation') { renderElicitation(d, r, who); box.append(d); continue; }
    d.append(el('div', '', (r.payload.toolName || r.payload.hookEvent || r.subtype) + who));
    d.append(el('pre', '', JSON.stringify(r.payload.input ?? r.payload, null, 1)));
    const ok = el('button', 'allow', 'approve'), no = el('button', 'deny', 'deny');
    const hook = r.subtype === 'hook_callback';
    ok.onclick = () => answer(r, hook ? { decision: 'allow' } : { behavior: 'allow' });
    no.onclick = () => answer(r, hook ? { decision: 'deny', reason: 'denied in the console' } : { behavior: 'deny', message: 'denied in the console' });
    d.append(ok, ' ', no); box.append(d);
  }
}
// A question from a tool or hook: one field per property of its schema (text, number or checkbox).
function renderElicitation(d, r, who) {
  d.append(el('div', '', 'question' + who), el('div', 'row user', r.payload.message));
  const props = (r.payload.schema && r.payload.schema.properties) || {};
  const fields = [];
  for (const [name, spec] of Object.entries(props)) {
    const type = spec && spec.type, label = el('label', 'row', (spec && spec.title) || name);
    const input = el('input'); input.name = name;
    input.type = type === 'boolean' ? 'checkbox' : type === 'number' || type === 'integer' ? 'number' : 'text';
    label.append(' ', input); d.append(label); fields.push([name, type, input]);
  }
  const ok = el('button', 'allow', 'submit'), no = el('button', 'deny', 'decline');
  ok.onclick = () => {
    const content = {};
    for (const [name, type, input] of fields) content[name] = type === 'boolean' ? input.checked : type === 'number' || type === 'integer' ? Number(input.value) : input.value;
    answer(r, { action: 'accept', content });
  };
  no.onclick = () => answer(r, { action: 'decline' });
  d.append(ok, ' ', no);
}
function renderHooks() {
  const box = $('hooks'); box.replaceChildren();
  for (const h of state.hooks.slice(-50).reverse()) box.append(el('div', 'row hook', h));
}
async function answer(r, response) {
  const res = await api('POST', '/session/' + r.sessionId + '/control-response', { requestID: r.id, subtype: r.subtype, response });
  if (!res.resolved) setStatus('request ' + r.id.slice(0, 8) + ' was no longer pending (' + res.reason + ')');
  state.requests.delete(r.id); renderRequests();
}
const partial = new Map();
function onEvent(sid, e) {
  switch (e.type) {
    case 'server.connected': setStatus('connected'); return;
    case 'replay.gap': setStatus('missed ' + (e.missed ?? 'some') + ' events'); return;
    case 'session.created': refreshSessions(); return;
    case 'session.deleted': state.sessions.delete(e.sessionId); renderSessions(); return;
    case 'control.request': state.requests.set(e.id, e); renderRequests(); return;
    case 'control.resolved': case 'control.cancelled': state.requests.delete(e.id); renderRequests(); return;
    case 'prompt.failed': add(e.sessionId, 'deny', 'prompt failed: ' + e.message); return;
  }
  if (!sid) return;
  switch (e.type) {
    case 'agent.start': add(sid, 'user', '> ' + e.prompt); break;
    case 'text.delta': {
      const log = logOf(sid); const last = log[log.length - 1];
      if (last && last.cls === 'text' && partial.get(sid)) last.text += e.text; else { log.push({ cls: 'text', text: e.text }); partial.set(sid, true); }
      if (sid === state.selected) renderLog(); return;
    }
    case 'tool.call': add(sid, 'tool', '⚙ ' + e.name + ' ' + JSON.stringify(e.input)); break;
    case 'tool.output': add(sid, e.isError ? 'tool deny' : 'tool', '← ' + e.name + ': ' + e.content.slice(0, 500)); break;
    case 'permission.resolved': add(sid, e.behavior === 'allow' ? 'tool' : 'deny', (e.behavior === 'allow' ? '✓ ' : '✗ ') + e.name + ' ' + e.behavior + ' (' + e.source + ')' + (e.message ? ': ' + e.message : '') + (e.input ? ', rewritten to ' + JSON.stringify(e.input) : '')); break;
    case 'tool.denied': add(sid, 'deny', '✗ ' + e.name + ' denied (' + e.source + '): ' + e.reason); break;
    case 'hook.end': {
      const line = (e.plugin || e.hookName) + ' ' + e.event + ' → ' + e.decision + ' · ' + e.durationMs.toFixed(2) + ' ms' + (e.fuelUsed !== undefined ? ' · fuel ' + e.fuelUsed : '');
      state.hooks.push(line); renderHooks(); add(sid, 'hook', 'hook ' + line); break;
    }
    case 'state.change': { const s = state.sessions.get(sid); if (s) { s.state = e.to; renderSessions(); } break; }
    case 'agent.end': add(sid, 'end', 'end: ' + e.result.subtype + ' (' + e.result.turns + ' turns)'); break;
    case 'mcp.server.connected': add(sid, 'hook', 'MCP server ' + e.server + ' connected (' + e.transport + ', ' + e.tools.length + ' tools)'); break;
    case 'mcp.server.closed': add(sid, 'deny', 'MCP server ' + e.server + ' closed: ' + e.reason); break;
    case 'mcp.server.error': add(sid, 'deny', 'MCP server ' + e.server + ' ' + e.code + ': ' + e.message); break;
  }
  partial.set(sid, false);
}
async function refreshSessions() {
  const { sessions } = await api('GET', '/session');
  state.sessions = new Map(sessions.map((s) => [s.id, s]));
  if (!state.selected && sessions.length) state.selected = sessions[0].id;
  renderSessions(); renderLog();
  for (const s of sessions) for (const r of (await api('GET', '/session/' + s.id + '/control-requests')).requests) state.requests.set(r.id, r);
  renderRequests();
}
async function stream() {
  if (state.controller) state.controller.abort();
  const controller = new AbortController(); state.controller = controller;
  for (let delay = 500; !controller.signal.aborted; delay = Math.min(delay * 2, 8000)) {
    try {
      const h = headers(false); if (state.lastId !== undefined) h['last-event-id'] = state.lastId;
      const res = await fetch('/global/event', { headers: h, signal: controller.signal });
      if (res.status === 401) { setStatus('token required'); return; }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = ''; delay = 500;
      for (;;) {
        const { value, done } = await reader.read(); if (done) break;
        buf += value; let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i); buf = buf.slice(i + 2); let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) state.lastId = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) { const env = JSON.parse(data); onEvent(env.sessionId, env.event); }
        }
      }
    } catch (err) { if (controller.signal.aborted) return; }
    setStatus('reconnecting'); await new Promise((r) => setTimeout(r, delay));
  }
}
function connect() {
  state.token = $('token').value.trim(); sessionStorage.setItem('wasmhooks.token', state.token);
  refreshSessions().then(stream, () => {});
}
$('connect').onclick = connect;
$('new').onclick = async () => { const s = await api('POST', '/session', {}); state.selected = s.id; await refreshSessions(); };
$('abort').onclick = () => state.selected && api('POST', '/session/' + state.selected + '/abort', {});
$('clear').onclick = async () => { if (!state.selected) return; const s = await api('POST', '/session/' + state.selected + '/clear', {}); state.selected = s.id; await refreshSessions(); };
$('send').onsubmit = async (ev) => {
  ev.preventDefault(); const prompt = $('prompt').value.trim();
  if (!prompt || !state.selected) return;
  await api('POST', '/session/' + state.selected + '/prompt', { prompt }); $('prompt').value = '';
};
connect();
`;
