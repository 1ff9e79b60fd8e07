// The `workspace` config value: the roots the file tools may touch.

import { config } from "@wasmhooks/sdk-guest";
import { normalize } from "./paths";

export const CONFIG_KEY = "workspace";

/** The roots, or the reason there are none (the guard then denies every call). */
export class Workspace {
  roots: string[] = [];
  problem: string = "";
}

/**
 * Reads `workspace`: absolute paths separated by `,`, `:` or newlines,
 * e.g. `/work/app,/tmp/scratch`. Missing, empty or relative entries are a
 * problem, never a silent "allow everything".
 */
export function readWorkspace(): Workspace {
  const ws = new Workspace();
  const raw = config(CONFIG_KEY);
  if (raw === null || raw.trim().length == 0) {
    ws.problem = "config key \"workspace\" is not set (grant it and set it to the absolute workspace paths, e.g. /work/app,/tmp/scratch)";
    return ws;
  }
  const entries = raw.replaceAll(",", "\n").replaceAll(":", "\n").split("\n");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i].trim();
    if (entry.length == 0) continue;
    if (!entry.startsWith("/")) {
      ws.problem = "workspace entry \"" + entry + "\" is not an absolute path";
      ws.roots = [];
      return ws;
    }
    ws.roots.push(normalize("/", entry));
  }
  if (ws.roots.length == 0) ws.problem = "config key \"workspace\" lists no paths";
  return ws;
}
