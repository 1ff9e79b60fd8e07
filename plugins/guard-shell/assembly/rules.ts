// The rules: each one names itself and says why the command is refused.

import { Token, tokenize, programName, argsAfter, hasRecursiveFlag } from "./tokens";
import { isCriticalPath, isDiskDevice } from "./targets";

export class Hit {
  constructor(public rule: string, public why: string) {}
}

const SHELLS: string[] = ["sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node"];
const DOWNLOADERS: string[] = ["curl", "wget"];
const POWER: string[] = ["shutdown", "reboot", "halt", "poweroff"];
const PREFIXES: string[] = ["sudo", "env", "command", "exec", "nohup", "time", "doas"];

/** The first rule the command breaks, or null if it looks harmless. */
export function findDestructive(command: string): Hit | null {
  const bomb = forkBomb(command);
  if (bomb !== null) return bomb;
  const tokens = tokenize(command);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const hit = t.isOperator ? operatorRule(tokens, i) : wordRule(tokens, i, programName(t.text));
    if (hit !== null) return hit;
  }
  return pipeToShell(tokens);
}

// Every word is looked at as a program name, so the rules are picked by the
// name's first letter: most words are turned away by one switch.
function wordRule(tokens: Token[], i: i32, name: string): Hit | null {
  switch (name.charCodeAt(0)) {
    case 0x72: return name == "rm" ? rmRule(argsAfter(tokens, i)) : name == "reboot" ? powerHit() : null; // r
    case 0x6d: return name.startsWith("mkfs") || name == "mke2fs" ? mkfsHit(name) : null; // m
    case 0x77: return name == "wipefs" ? mkfsHit(name) : null; // w
    case 0x64: return name == "dd" ? ddRule(argsAfter(tokens, i)) : null; // d
    case 0x73: { // s
      if (name == "shred") return shredRule(argsAfter(tokens, i));
      if (name == "shutdown" || (name == "systemctl" && anyOf(argsAfter(tokens, i), POWER))) return powerHit();
      return null;
    }
    case 0x6b: return name == "kill" && killsEverything(argsAfter(tokens, i)) ? new Hit("kill-all", "kill -1 signals every process you can reach") : null; // k
    case 0x68: return name == "halt" ? powerHit() : null; // h
    case 0x70: return name == "poweroff" ? powerHit() : null; // p
    case 0x63: { // c
      if (name != "chmod" && name != "chown" && name != "chgrp") return null;
      const args = argsAfter(tokens, i);
      if (hasRecursiveFlag(args) && anyCritical(args)) return new Hit("recursive-" + name + "-root", "recursive " + name + " of the root, a home folder or a system folder");
      return null;
    }
    case 0x66: return name == "find" ? findRule(argsAfter(tokens, i)) : null; // f
    default: return null;
  }
}

function rmRule(args: string[]): Hit | null {
  if (args.includes("--no-preserve-root")) return new Hit("rm-no-preserve-root", "rm --no-preserve-root deletes the root filesystem");
  if (hasRecursiveFlag(args) && anyCritical(args)) return new Hit("rm-recursive-root", "recursive rm of the root, a home folder or a system folder");
  return null;
}

function mkfsHit(name: string): Hit {
  return new Hit("mkfs", name + " formats or wipes a filesystem");
}

function powerHit(): Hit {
  return new Hit("shutdown", "shuts down or reboots the machine");
}

function ddRule(args: string[]): Hit | null {
  for (let k = 0; k < args.length; k++) {
    if (args[k].startsWith("of=") && isDiskDevice(args[k].substring(3))) {
      return new Hit("dd-to-device", "dd writing to the device " + args[k].substring(3) + " overwrites a disk");
    }
  }
  return null;
}

function shredRule(args: string[]): Hit | null {
  for (let k = 0; k < args.length; k++) {
    if (isDiskDevice(args[k])) return new Hit("shred-device", "shred overwrites the device " + args[k]);
  }
  return null;
}

function findRule(args: string[]): Hit | null {
  const deletes = args.includes("-delete") || (args.includes("-exec") && args.includes("rm"));
  if (args.length > 0 && isCriticalPath(args[0]) && deletes) return new Hit("find-delete-root", "find deleting under the root, a home folder or a system folder");
  return null;
}

function operatorRule(tokens: Token[], i: i32): Hit | null {
  const op = tokens[i].text;
  if ((op == ">" || op == ">>") && i + 1 < tokens.length && !tokens[i + 1].isOperator && isDiskDevice(tokens[i + 1].text)) {
    return new Hit("write-to-device", "redirecting output to " + tokens[i + 1].text + " overwrites a disk");
  }
  // `bash <(curl ...)`, `sh -c "$(wget ...)"`: a shell running what a download produced.
  if ((op == "<(" || op == "$(" || op == "`") && i + 1 < tokens.length && DOWNLOADERS.includes(programName(tokens[i + 1].text))) {
    for (let k = i - 1; k >= 0 && !isCommandEnd(tokens[k]); k--) {
      if (!tokens[k].isOperator && SHELLS.includes(programName(tokens[k].text))) {
        return new Hit("download-to-shell", "a shell runs a script fetched from the network");
      }
    }
  }
  return null;
}

/** `curl ... | sh`, `wget -O- ... | sudo bash`. */
function pipeToShell(tokens: Token[]): Hit | null {
  let downloading = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t.isOperator) {
      if (DOWNLOADERS.includes(programName(t.text))) downloading = true;
      continue;
    }
    if (t.text == "|" && downloading) {
      let k = i + 1;
      while (k < tokens.length && !tokens[k].isOperator && isPrefix(tokens[k].text)) k++;
      if (k < tokens.length && !tokens[k].isOperator && SHELLS.includes(programName(tokens[k].text))) {
        return new Hit("download-to-shell", "piping a download into " + programName(tokens[k].text) + " runs unreviewed code");
      }
    } else if (isCommandEnd(t)) {
      downloading = false;
    }
  }
  return null;
}

/** `:(){ :|:& };:` and the same shape under any name. */
function forkBomb(command: string): Hit | null {
  if (!command.includes("(") || !command.includes("|")) return null;
  const s = command.replaceAll(" ", "").replaceAll("\t", "").replaceAll("\n", "");
  let at = s.indexOf("(){");
  while (at > 0) {
    let start = at;
    while (start > 0 && !";&|(){}".includes(s.charAt(start - 1))) start--;
    const name = s.substring(start, at);
    const end = s.indexOf("}", at);
    const body = end > at ? s.substring(at + 3, end) : s.substring(at + 3);
    if (name.length > 0 && body.includes(name + "|" + name)) {
      return new Hit("fork-bomb", "a function that pipes into itself in the background exhausts the process table");
    }
    at = s.indexOf("(){", at + 3);
  }
  return null;
}

function anyCritical(args: string[]): bool {
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith("-") && isCriticalPath(args[i])) return true;
  }
  return false;
}

// `kill -9 -1`, `kill -KILL -1`, `kill -- -1` (a lone `kill -1 PID` is SIGHUP to PID).
function killsEverything(args: string[]): bool {
  for (let k = 1; k < args.length; k++) if (args[k] == "-1") return true;
  return false;
}

function anyOf(args: string[], words: string[]): bool {
  for (let k = 0; k < args.length; k++) if (words.includes(args[k])) return true;
  return false;
}

function isPrefix(word: string): bool {
  return PREFIXES.includes(word) || word.startsWith("-") || word.includes("=");
}

function isCommandEnd(t: Token): bool {
  return t.isOperator && (t.text == ";" || t.text == "&&" || t.text == "||" || t.text == "&");
}
