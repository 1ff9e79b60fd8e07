/**
 * The browser console served at `/`: live sessions, streamed text and tool
 * calls, hook decisions, approve/deny for pending tool calls and hook
 * callbacks, and a form for elicitation questions. Plain HTML
 * and JS; it reads `/global/event` with fetch (not EventSource) so it can
 * send the bearer token as a header. Event data is only ever put in the page
 * as text, never as HTML.
 */
import { consoleScript } from './console-script.js';

export const consoleHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wasmhooks console</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1d232b;background:#f4f5f7;display:grid;grid-template-columns:220px 1fr 320px;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/4;display:flex;gap:8px;align-items:center;padding:8px 12px;background:#1d232b;color:#fff}
header h1{font-size:15px;margin:0 12px 0 0}header .status{margin-left:auto;font-size:12px;opacity:.8}
input,textarea,button{font:inherit}button{cursor:pointer;border:1px solid #99a;border-radius:4px;background:#fff;padding:3px 10px}
button.allow{background:#1f8a4c;color:#fff;border-color:#1f8a4c}button.deny{background:#b42318;color:#fff;border-color:#b42318}
aside,main,section{overflow:auto;padding:10px}aside{border-right:1px solid #dde}section{border-left:1px solid #dde;background:#fff}
#sessions li{list-style:none;padding:6px;border-radius:4px;cursor:pointer;font-family:monospace;font-size:12px}#sessions{padding:0;margin:8px 0}
#sessions li.sel{background:#dfe7ff}#sessions li .st{float:right;color:#667}
main{display:flex;flex-direction:column;gap:8px}#log{flex:1;overflow:auto;background:#fff;border:1px solid #dde;border-radius:6px;padding:8px}
.row{margin:3px 0;white-space:pre-wrap;word-break:break-word}.text{color:#1d232b}.tool{color:#3538cd;font-family:monospace;font-size:12px}
.hook{color:#6941c6;font-family:monospace;font-size:12px}.deny{color:#b42318}.end{color:#667;font-style:italic}.user{font-weight:600}
form{display:flex;gap:6px}form textarea{flex:1;height:52px}.req{border:1px solid #f0b400;background:#fffaeb;border-radius:6px;padding:8px;margin-bottom:8px}
.req pre{font-size:11px;max-height:120px;overflow:auto;background:#fff;padding:4px}h2{font-size:13px;margin:4px 0;color:#445}
</style></head><body>
<header><h1>wasmhooks console</h1><input id="token" type="password" placeholder="bearer token (if required)" size="28"><button id="connect">connect</button><span class="status" id="status">disconnected</span></header>
<aside><button id="new">+ new session</button><ul id="sessions"></ul></aside>
<main><div id="log"></div><form id="send"><textarea id="prompt" placeholder="prompt"></textarea><button>send</button><button type="button" id="abort">abort</button><button type="button" id="clear" title="end this session and start a new one with its options (Claude Code's /clear)">clear</button></form></main>
<section><h2>pending questions</h2><div id="requests"></div><h2>hook decisions</h2><div id="hooks"></div></section>
<script>${consoleScript}</script></body></html>`;
