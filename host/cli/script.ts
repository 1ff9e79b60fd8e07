/**
 * Scripts for the scripted model (`--script turns.json`), so the CLI runs
 * offline and deterministically: a list of turns, and rules matched on the
 * last message.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { messageOf } from '../errors.js';
import { issueLines } from '../config/issues.js';
import { scriptedModel, type ScriptedModel, type ScriptedModelOptions } from '../models/scripted.js';
import { CliError, EXIT } from './exit.js';

const turn = z
  .object({
    thinking: z.string().optional(),
    text: z.string().optional(),
    toolCalls: z
      .array(z.object({ name: z.string().min(1), input: z.record(z.string(), z.unknown()), id: z.string().optional() }).strict())
      .optional(),
    stopReason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal']).optional(),
    usage: z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).partial().optional(),
  })
  .strict();

const scriptSchema = z.union([
  z.array(turn),
  z
    .object({
      turns: z.array(turn).optional(),
      rules: z
        .array(
          z
            .object({
              when: z
                .object({ lastUser: z.string(), lastToolResult: z.string(), lastToolName: z.string() })
                .partial()
                .strict(),
              reply: turn,
              times: z.number().int().positive().optional(),
            })
            .strict(),
        )
        .optional(),
      /** Delay before each streamed chunk, ms (makes the spinner visible). */
      delayMs: z.number().nonnegative().optional(),
    })
    .strict(),
]);

/** `when.lastUser` and `lastToolResult` are regex sources in the file. */
function toOptions(script: z.output<typeof scriptSchema>): ScriptedModelOptions {
  if (Array.isArray(script)) return { turns: script };
  return {
    ...(script.turns ? { turns: script.turns } : {}),
    ...(script.delayMs !== undefined ? { delayMs: script.delayMs } : {}),
    ...(script.rules
      ? {
          rules: script.rules.map((r) => ({
            when: {
              ...(r.when.lastUser !== undefined ? { lastUser: new RegExp(r.when.lastUser) } : {}),
              ...(r.when.lastToolResult !== undefined ? { lastToolResult: new RegExp(r.when.lastToolResult) } : {}),
              ...(r.when.lastToolName !== undefined ? { lastToolName: r.when.lastToolName } : {}),
            },
            reply: r.reply,
            ...(r.times !== undefined ? { times: r.times } : {}),
          })),
        }
      : {}),
  };
}

/** Reads a script file into a scripted model. */
export async function loadScript(path: string): Promise<ScriptedModel> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliError(`--script ${path}: ${messageOf(error)}`, EXIT.USAGE);
  }
  const parsed = scriptSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CliError(`--script ${path}: ${issueLines(parsed.error.issues, raw).join('; ')}`, EXIT.USAGE);
  }
  try {
    return scriptedModel(toOptions(parsed.data));
  } catch (error) {
    throw new CliError(`--script ${path}: ${messageOf(error)}`, EXIT.USAGE);
  }
}

/** Without a script, the scripted model answers every prompt by saying what it is. */
export function demoModel(): ScriptedModel {
  return scriptedModel({
    rules: [
      {
        when: () => true,
        reply: (request) => {
          const last = request.messages[request.messages.length - 1];
          const prompt = last?.role === 'user' ? last.content : '';
          return {
            text: `This is the offline scripted model (pass --script turns.json to script it, or --model openai:<model>). You said: ${prompt}`,
          };
        },
      },
    ],
  });
}
