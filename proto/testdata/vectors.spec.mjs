// The readable source of proto/testdata/vectors.json: each vector is a message
// type plus its fields in proto3 JSON form (camelCase names, enum names).
// Canonical vectors are encoded by protobufjs. A vector with a `hex()` function
// gives non-canonical input instead (unknown fields, fields out of order):
// decoding it must still give `fields`, and re-encoding must give the
// canonical bytes (`canonicalHex` in the output).
// Regenerate: node scripts/gen-vectors.mjs

const context = {
  sessionId: 'sess-0f3a',
  turn: 3,
  iteration: 2,
  agentId: 'agent-7',
  cwd: '/home/dev/project',
  toolUseId: 'toolu_01ABC',
  permissionMode: 'default',
  transcriptPath: '/home/dev/project/.wasmhooks/sessions/sess-0f3a.jsonl',
};

// Tag bytes for field numbers we do not define, one per wire type:
// 100 varint (a0 06), 101 i64 (a9 06), 102 LEN (b2 06), 103 i32 (bd 06).
const UNKNOWN_FIELDS = 'a006' + '96' + '01' + 'a906' + '0102030405060708' + 'b206' + '03' + '616263' + 'bd06' + 'deadbeef';

export default [
  { name: 'empty PluginInfo', type: 'PluginInfo', fields: {} },
  {
    name: 'PluginInfo with every field',
    type: 'PluginInfo',
    fields: {
      name: 'guard-shell',
      version: '1.2.3',
      protocolVersion: 1,
      hooks: [
        { event: 'HOOK_EVENT_PRE_TOOL_USE', matcher: 'Bash|Shell', failurePolicy: 'FAILURE_POLICY_FAIL_CLOSED' },
        { event: 'HOOK_EVENT_POST_TOOL_USE', matcher: '.*', failurePolicy: 'FAILURE_POLICY_FAIL_OPEN' },
        { event: 'HOOK_EVENT_STOP' },
        {},
      ],
      tools: [
        { name: 'count_lines', description: 'Counts lines', inputSchemaJson: '{"type":"object","properties":{"path":{"type":"string"}}}' },
        { name: 'noop' },
      ],
      grants: { networkHosts: ['api.example.com', '', '*.example.org'], filePaths: ['/tmp'], configKeys: ['token', 'mode'] },
      description: 'Denies destructive shell commands',
    },
  },
  { name: 'Grants with one empty-string element', type: 'Grants', fields: { configKeys: [''] } },
  { name: 'HookBinding with an unknown enum value', type: 'HookBinding', fields: { event: 99, matcher: 'x' } },
  { name: 'ToolSpec alone', type: 'ToolSpec', fields: { name: 't', description: 'd', inputSchemaJson: '{}' } },
  { name: 'HookContext with every field', type: 'HookContext', fields: context },
  {
    name: 'HookRequest PreToolUse (tool_use arm)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_PRE_TOOL_USE', context, toolUse: { toolName: 'Bash', toolInputJson: '{"command":"rm -rf /"}' } },
  },
  {
    name: 'HookRequest PreToolUse re-check (tool_use arm with recheck)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_PRE_TOOL_USE', context, toolUse: { toolName: 'Bash', toolInputJson: '{"command":"rm -rf /"}', recheck: true } },
  },
  {
    name: 'HookRequest SessionStart (session arm)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_SESSION_START', context: { sessionId: 's1' }, session: { reason: 'startup' } },
  },
  {
    name: 'HookRequest SessionEnd with an empty session arm and an empty context',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_SESSION_END', context: {}, session: {} },
  },
  {
    name: 'HookRequest UserPromptSubmit with unicode (prompt arm)',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_USER_PROMPT_SUBMIT',
      prompt: { prompt: 'Zażółć gęślą jaźń — 日本語 — עברית — 🐢🏳️‍🌈 — e\u0301 — "quotes" \\ back\tslash\nnew line \u0000 nul' },
    },
  },
  {
    name: 'HookRequest PostToolUse (tool_result arm)',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_POST_TOOL_USE',
      context,
      toolResult: { toolName: 'Read', toolInputJson: '{"path":"a.txt"}', toolOutputJson: '"line 1\\nline 2"' },
    },
  },
  {
    name: 'HookRequest PostToolUseFailure (tool_result arm with error)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_POST_TOOL_USE_FAILURE', toolResult: { toolName: 'Bash', error: 'exit status 1' } },
  },
  {
    name: 'HookRequest PostToolBatch (tool_batch arm, repeated calls)',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_POST_TOOL_BATCH',
      toolBatch: {
        calls: [
          { id: 'call_1', name: 'Read', inputJson: '{"path":"a"}' },
          { id: 'call_2', name: 'Write', inputJson: '{"path":"b","content":"x"}' },
          {},
        ],
      },
    },
  },
  {
    name: 'HookRequest Stop (stop arm, bool true)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_STOP', stop: { stopHookActive: true, lastAssistantMessage: 'Done.' } },
  },
  {
    name: 'HookRequest StopFailure (stop arm with error)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_STOP_FAILURE', stop: { error: 'max turns' } },
  },
  {
    name: 'HookRequest SubagentStop (subagent arm, every field)',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_SUBAGENT_STOP',
      context: { sessionId: 's', agentId: 'sub-1' },
      subagent: { agentId: 'sub-1', agentType: 'researcher', prompt: 'find it', result: 'found it', stopHookActive: true, lastAssistantMessage: 'found it' },
    },
  },
  {
    name: 'HookRequest PreCompact with the largest uint32 values (compact arm)',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_PRE_COMPACT',
      context: { turn: 4294967295, iteration: 127 },
      compact: { trigger: 'auto', tokensBefore: 4294967295, tokensAfter: 128 },
    },
  },
  {
    name: 'HookRequest PostCompact with 2-, 3- and 4-byte varints',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_POST_COMPACT', context: { turn: 16383, iteration: 16384 }, compact: { trigger: 'manual', tokensBefore: 2097151, tokensAfter: 268435455 } },
  },
  {
    name: 'HookRequest Notification (notification arm)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_NOTIFICATION', notification: { message: 'Waiting for permission', level: 'info', notificationType: 'permission_prompt', title: 'Permission needed' } },
  },
  {
    name: 'HookRequest Error (error arm)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_ERROR', error: { code: 'MODEL_HTTP', message: 'upstream 529' } },
  },
  {
    name: 'HookRequest with an unknown event value and no payload',
    type: 'HookRequest',
    fields: { event: 4242 },
  },
  {
    name: 'HookRequest PermissionRequest with permission suggestions',
    type: 'HookRequest',
    fields: {
      event: 'HOOK_EVENT_PERMISSION_REQUEST',
      context,
      toolUse: { toolName: 'Bash', toolInputJson: '{"command":"npm test"}', permissionSuggestionsJson: '[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}]' },
    },
  },
  {
    name: 'HookRequest with a 20000-byte tool input (3-byte length prefix)',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_PERMISSION_REQUEST', toolUse: { toolName: 'Write', toolInputJson: JSON.stringify({ content: 'é'.repeat(9990) }) } },
  },
  { name: 'HookResponse allow', type: 'HookResponse', fields: { decision: 'DECISION_ALLOW' } },
  {
    name: 'HookResponse allow with updated permissions',
    type: 'HookResponse',
    fields: { decision: 'DECISION_ALLOW', updatedPermissionsJson: '[{"type":"addRules","rules":[{"toolName":"Write"}],"behavior":"allow","destination":"session"}]' },
  },
  {
    name: 'HookResponse with every field',
    type: 'HookResponse',
    fields: {
      decision: 'DECISION_DENY',
      reason: 'guard-shell: rm-recursive-root',
      updatedInputJson: '{"command":"ls"}',
      additionalContext: 'Use the trash instead.',
      systemMessage: 'Blocked a dangerous command',
      updatedOutputJson: '{"redacted":true}',
    },
  },
  { name: 'HookResponse block', type: 'HookResponse', fields: { decision: 'DECISION_BLOCK', reason: 'tests are failing' } },
  { name: 'HookResponse with a negative enum value (ten-byte varint)', type: 'HookResponse', fields: { decision: -1 } },
  { name: 'empty HookResponse', type: 'HookResponse', fields: {} },
  {
    name: 'ToolRequest with context',
    type: 'ToolRequest',
    fields: { name: 'count_lines', inputJson: '{"path":"src/main.ts"}', context: { sessionId: 's', toolUseId: 'toolu_9' } },
  },
  { name: 'ToolResponse error', type: 'ToolResponse', fields: { content: 'no such file', isError: true } },
  { name: 'ToolResponse text', type: 'ToolResponse', fields: { content: '42 lines' } },
  { name: 'ToolCall alone', type: 'ToolCall', fields: { id: 'c', name: 'n', inputJson: '[]' } },
  { name: 'ToolUsePayload alone', type: 'ToolUsePayload', fields: { toolName: 'Bash' } },
  { name: 'ToolUsePayload with only recheck', type: 'ToolUsePayload', fields: { recheck: true } },
  {
    name: 'ToolUsePayload with recheck first and written as a two-byte varint',
    type: 'ToolUsePayload',
    fields: { toolName: 'Bash', recheck: true },
    // recheck (field 3) = 1 as the non-minimal varint 81 00, ahead of tool_name: any non-zero varint is true.
    hex: () => '188100' + '0a0442617368',
  },
  { name: 'ToolResultPayload alone', type: 'ToolResultPayload', fields: { toolOutputJson: 'null' } },
  { name: 'ToolBatchPayload alone', type: 'ToolBatchPayload', fields: { calls: [{ id: 'only' }] } },
  { name: 'SessionPayload alone', type: 'SessionPayload', fields: { reason: 'closed' } },
  { name: 'PromptPayload alone', type: 'PromptPayload', fields: { prompt: 'hi' } },
  { name: 'StopPayload alone', type: 'StopPayload', fields: { stopHookActive: true } },
  { name: 'SubagentPayload alone', type: 'SubagentPayload', fields: { agentType: 'general' } },
  { name: 'CompactPayload alone', type: 'CompactPayload', fields: { tokensAfter: 1 } },
  { name: 'NotificationPayload alone', type: 'NotificationPayload', fields: { level: 'warn' } },
  { name: 'ErrorPayload alone', type: 'ErrorPayload', fields: { code: 'X' } },
  {
    name: 'HookRequest with unknown fields of every wire type, top level and nested',
    type: 'HookRequest',
    fields: { event: 'HOOK_EVENT_PRE_TOOL_USE', toolUse: { toolName: 'Bash' } },
    // event, then tool_use (field 12) holding tool_name plus unknown fields, then unknown fields.
    hex: () => '0806' + UNKNOWN_FIELDS + lengthDelimited('62', '0a0442617368' + UNKNOWN_FIELDS) + UNKNOWN_FIELDS,
  },
  {
    name: 'PluginInfo with unknown fields before, between and after known ones',
    type: 'PluginInfo',
    fields: { name: 'p', version: '1' },
    hex: () => UNKNOWN_FIELDS + '0a0170' + UNKNOWN_FIELDS + '120131' + UNKNOWN_FIELDS,
  },
  {
    name: 'HookResponse with fields out of order',
    type: 'HookResponse',
    fields: { decision: 'DECISION_DENY', reason: 'r' },
    hex: () => '1201720803',
  },
];

function lengthDelimited(tagHex, payloadHex) {
  let n = payloadHex.length / 2;
  let varint = '';
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    varint += byte.toString(16).padStart(2, '0');
  } while (n);
  return tagHex + varint + payloadHex;
}
