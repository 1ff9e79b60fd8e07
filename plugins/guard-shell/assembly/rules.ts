// The rules: each one names itself and says why the command is refused.

import {
  Tokens, tokenize, argsAfter, hasRecursiveFlag,
  OP_AND, OP_AND_AND, OP_APPEND, OP_BACKTICK, OP_COMMAND_SUB, OP_OR_OR, OP_PIPE, OP_PROCESS_SUB, OP_REDIRECT, OP_SEMI,
} from "./tokens";
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
  const hidden = spelledByTheShell(command);
  if (hidden !== null) return hidden;
  const tokens = tokenize(command);
  for (let i = 0; i < tokens.length; i++) {
    const hit = tokens.isOperator(i) ? operatorRule(tokens, i) : wordRule(tokens, i);
    if (hit !== null) return hit;
  }
  return pipeToShell(tokens);
}

// Every word is looked at as a program name, so the rules are picked by the
// name's first letter: most words are turned away by one switch.
function wordRule(t: Tokens, i: i32): Hit | null {
  switch (t.nameFirst(i)) {
    case 0x72: return t.nameIs(i, "rm") ? rmRule(argsAfter(t, i)) : t.nameIs(i, "reboot") ? powerHit() : null; // r
    case 0x6d: return t.nameStartsWith(i, "mkfs") || t.nameIs(i, "mke2fs") ? mkfsHit(t.name(i)) : null; // m
    case 0x77: return t.nameIs(i, "wipefs") ? mkfsHit(t.name(i)) : null; // w
    case 0x64: return t.nameIs(i, "dd") ? ddRule(argsAfter(t, i)) : null; // d
    case 0x73: { // s
      if (t.nameIs(i, "shred")) return shredRule(argsAfter(t, i));
      if (t.nameIs(i, "shutdown") || (t.nameIs(i, "systemctl") && anyOf(argsAfter(t, i), POWER))) return powerHit();
      return null;
    }
    case 0x6b: return t.nameIs(i, "kill") && killsEverything(argsAfter(t, i)) ? new Hit("kill-all", "kill -1 signals every process you can reach") : null; // k
    case 0x68: return t.nameIs(i, "halt") ? powerHit() : null; // h
    case 0x70: return t.nameIs(i, "poweroff") ? powerHit() : null; // p
    case 0x63: { // c
      if (!t.nameIs(i, "chmod") && !t.nameIs(i, "chown") && !t.nameIs(i, "chgrp")) return null;
      const name = t.name(i);
      const args = argsAfter(t, i);
      if (hasRecursiveFlag(args) && anyCritical(args)) return new Hit("recursive-" + name + "-root", "recursive " + name + " of the root, a home folder or a system folder");
      return null;
    }
    case 0x66: return t.nameIs(i, "find") ? findRule(argsAfter(t, i)) : null; // f
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

function operatorRule(t: Tokens, i: i32): Hit | null {
  const op = t.op(i);
  if ((op == OP_REDIRECT || op == OP_APPEND) && i + 1 < t.length && !t.isOperator(i + 1)) {
    const target = t.text(i + 1);
    if (isDiskDevice(target)) return new Hit("write-to-device", "redirecting output to " + target + " overwrites a disk");
  }
  // `bash <(curl ...)`, `sh -c "$(wget ...)"`: a shell running what a download produced.
  if ((op == OP_PROCESS_SUB || op == OP_COMMAND_SUB || op == OP_BACKTICK) && i + 1 < t.length && t.nameIn(i + 1, DOWNLOADERS)) {
    for (let k = i - 1; k >= 0 && !isCommandEnd(t, k); k--) {
      if (t.nameIn(k, SHELLS)) return new Hit("download-to-shell", "a shell runs a script fetched from the network");
    }
  }
  return null;
}

/** `curl ... | sh`, `wget -O- ... | sudo bash`. */
function pipeToShell(t: Tokens): Hit | null {
  let downloading = false;
  for (let i = 0; i < t.length; i++) {
    const op = t.op(i);
    if (op == 0) {
      const first = t.nameFirst(i);
      if ((first == 0x63 || first == 0x77) && t.nameIn(i, DOWNLOADERS)) downloading = true; // curl, wget
      continue;
    }
    if (op == OP_PIPE && downloading) {
      let k = i + 1;
      while (k < t.length && !t.isOperator(k) && isPrefix(t.text(k))) k++;
      if (k < t.length && t.nameIn(k, SHELLS)) {
        return new Hit("download-to-shell", "piping a download into " + t.name(k) + " runs unreviewed code");
      }
    } else if (isCommandEnd(t, i)) {
      downloading = false;
    }
  }
  return null;
}

/** `:(){ :|:& };:` and the same shape under any name. */
function forkBomb(command: string): Hit | null {
  if (!hasChar(command, 0x28) || !hasChar(command, 0x7c)) return null; // ( and |
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

/**
 * Words the shell rewrites before running them, which a string check cannot
 * read: ANSI-C quoting with character escapes (`$'\x72m' -rf /` is `rm -rf /`) and a
 * brace expansion at the start of a word (`{rm,-rf,/}` runs `rm -rf /`).
 * Either can spell any command, so neither is allowed.
 */
function spelledByTheShell(command: string): Hit | null {
  const n = command.length;
  for (let i = 0; i < n; i++) {
    const c = command.charCodeAt(i);
    if (c == 0x24 && i + 1 < n && command.charCodeAt(i + 1) == 0x27) { // $'
      for (let k = i + 2; k < n; k++) {
        const d = command.charCodeAt(k);
        if (d == 0x27) break;
        if (d == 0x5c && k + 1 < n && spellsAChar(command.charCodeAt(k + 1))) return new Hit("ansi-c-escape", "$'…' with escapes can spell any command ($'\\x72m' is rm); write the command plainly");
      }
    } else if (c == 0x7b && (i == 0 || wordBoundary(command.charCodeAt(i - 1)))) { // { starting a word
      let comma = false;
      for (let k = i + 1; k < n; k++) {
        const d = command.charCodeAt(k);
        if (d == 0x2c) comma = true;
        else if (d == 0x7d) {
          if (comma) return new Hit("brace-expansion", "a {a,b,…} word expands into words the guard cannot see ({rm,-rf,/} runs rm -rf /); write the command plainly");
          break;
        } else if (wordBoundary(d)) break;
      }
    }
  }
  return null;
}

// An escape in $'…' that can stand for any character: \x.., \u...., \U........, \c., octal \0-\7.
// (\n, \t and the like, as in IFS=$'\n', cannot spell a command.)
function spellsAChar(c: i32): bool {
  return c == 0x78 || c == 0x75 || c == 0x55 || c == 0x63 || (c >= 0x30 && c <= 0x37);
}

// Blanks and the characters that end a word for the shell.
function wordBoundary(c: i32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d || c == 0x3b || c == 0x26 || c == 0x7c || c == 0x28 || c == 0x29;
}

// By hand: String#includes compares a whole string at every position.
function hasChar(s: string, c: i32): bool {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) == c) return true;
  return false;
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

function isCommandEnd(t: Tokens, k: i32): bool {
  const op = t.op(k);
  return op == OP_SEMI || op == OP_AND_AND || op == OP_OR_OR || op == OP_AND;
}
