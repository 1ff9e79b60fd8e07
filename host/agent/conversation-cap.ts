/**
 * The cap on one conversation's size (`maxMessages`, `maxConversationChars`):
 * a tool, a plugin or an MCP server that answers with all it is allowed, turn
 * after turn, would otherwise grow a session without bound: the host's memory,
 * the store's transcript, and every later model request. Outputs past the cap
 * are replaced by a short note as they arrive (tool-batch.ts); the next model
 * call is refused with CONVERSATION_TOO_LARGE (loop.ts), which names the way
 * out (compact, a new session, or a larger cap).
 */
import type { Message } from '../models/types.js';

/** What the cap reads of a loop's config (config.ts `LoopConfig`; named here so config.ts may use this file). */
export interface CappedConversation {
  messages: Message[];
  maxMessages: number;
  maxConversationChars: number;
  /** Hook context gathered for the next model call: it enters the conversation as one more message (config.ts `flushContext`). */
  pendingContext?: readonly unknown[];
}

/** The characters a message holds (its text; an assistant message's parts as JSON, as compaction counts them). */
function charsOf(m: Message): number {
  return m.role === 'assistant' ? JSON.stringify(m.content).length : m.content.length;
}

/** What was measured of one conversation array: its size up to `length`, and the message at `length - 1`. */
interface Measured {
  length: number;
  chars: number;
  last: Message | undefined;
}

const measured = new WeakMap<readonly Message[], Measured>();
/** Conversations that had an output dropped for want of room: full until compacted (a new array). */
const filled = new WeakSet<readonly Message[]>();

/**
 * The characters of `messages`, measured incrementally: a conversation only grows between
 * compactions, so only the messages added since the last measure are read. Anything else (a
 * compaction rewrote the array) is measured again in full.
 */
export function conversationChars(messages: readonly Message[]): number {
  let m = measured.get(messages);
  if (!m || messages.length < m.length || (m.length > 0 && messages[m.length - 1] !== m.last)) {
    m = { length: 0, chars: 0, last: undefined };
    measured.set(messages, m);
  }
  for (let i = m.length; i < messages.length; i++) m.chars += charsOf(messages[i]!);
  m.length = messages.length;
  m.last = messages[messages.length - 1];
  return m.chars;
}

/**
 * A compaction rewrote `messages` in place: it has room again, as far as its size says, and that
 * size is measured anew (a compactor that trims old messages keeps the array's length and last
 * message, which the incremental measure would take for an unchanged array).
 */
export function compacted(messages: readonly Message[]): void {
  filled.delete(messages);
  measured.delete(messages);
}

/**
 * Why a prompt can never enter a conversation under this cap, however far it is compacted (its own
 * text passes maxConversationChars), or undefined. Compacting first would only cost a model call and
 * the session's history: any client could send such a prompt to summarize a session away.
 */
export function promptPastCap(config: Pick<CappedConversation, 'maxConversationChars'>, prompt: string): string | undefined {
  if (prompt.length <= config.maxConversationChars) return undefined;
  return `the prompt alone holds ${prompt.length} characters, more than maxConversationChars (${config.maxConversationChars}): shorten it or raise the cap`;
}

/**
 * Why the conversation may not go to the model as it is (or, given `incoming`, may not take that
 * message first), or undefined. A prompt past the cap on its own is `promptPastCap`'s to refuse.
 */
export function overCap(config: CappedConversation, incoming?: string): string | undefined {
  const { messages, maxMessages, maxConversationChars } = config;
  const way = 'compact it (session.compact()), continue in a new session, or raise the cap';
  // Pending hook context is one more message before the model call: without it a conversation at
  // maxMessages went to the model with maxMessages + 1.
  const pending = config.pendingContext?.length ? 1 : 0;
  const count = messages.length + (incoming === undefined ? 0 : 1) + pending;
  if (count > maxMessages) {
    const more = `${incoming === undefined ? '' : ' and a prompt'}${pending ? ' and hook context' : ''}`;
    return `the conversation holds ${messages.length} messages${more}, more than maxMessages (${maxMessages}): ${way}`;
  }
  const chars = conversationChars(messages) + (incoming?.length ?? 0);
  if (chars > maxConversationChars || filled.has(messages)) {
    const what = chars > maxConversationChars ? `holds ${chars} characters, more than` : `had a tool output or hook context dropped for want of room: ${chars} characters and what was dropped would pass`;
    return `the conversation ${what} maxConversationChars (${maxConversationChars}): ${way}`;
  }
  return undefined;
}

/**
 * Hook context on its way into the conversation (config.ts `flushContext`): as it is while it
 * fits, else a short note in its place (the conversation is then full: the next turn is refused).
 * Undefined when the conversation has no room for one more message: context gathered after the
 * turn's cap check (IterationStart hooks) into a conversation at `maxMessages` is dropped, and the
 * conversation counts as full, so the model is never sent more than `maxMessages` messages.
 */
export function fitContext(config: Pick<CappedConversation, 'messages' | 'maxConversationChars' | 'maxMessages'>, text: string): string | undefined {
  if (config.messages.length >= config.maxMessages) {
    filled.add(config.messages);
    return undefined;
  }
  return new ConversationRoom(config).take(text, 'hook context').content;
}

/**
 * The room one batch of tool results has left: `take` gives an output back as it is while it
 * fits, and a short note in its place once it would not (every call still gets a result).
 */
export class ConversationRoom {
  #left: number;

  constructor(private readonly config: Pick<CappedConversation, 'messages' | 'maxConversationChars'>) {
    this.#left = config.maxConversationChars - conversationChars(config.messages);
  }

  take(content: string, what = 'output'): { content: string; dropped: boolean } {
    if (content.length <= this.#left) {
      this.#left -= content.length;
      return { content, dropped: false };
    }
    this.#left = 0;
    filled.add(this.config.messages);
    return {
      content: `[${what} dropped: its ${content.length} characters would take the conversation past maxConversationChars (${this.config.maxConversationChars})]`,
      dropped: true,
    };
  }
}
