// secret-redactor through the host: tool output rewritten before the model sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, WasmPlugin } from '../../host/index.js';
import type { HookResult, HostEvent } from '../../host/index.js';
import { builtPlugin, postToolUse } from './wasm.js';
import { fakeBash } from '../fixtures/tools.js';

const wasm = builtPlugin('secret-redactor');

// Built at run time so no scanner (ours or a repository's) mistakes the fixtures for real keys.
const key = (prefix: string, body: string, n: number) => prefix + body.repeat(Math.ceil(n / body.length)).slice(0, n);
const SECRETS = {
  openai: key('sk-proj-', 'Ab3dEf6hIj', 40),
  anthropic: key('sk-ant-api03-', 'Zy9xWv8uTs', 60),
  github: key('ghp_', 'aB1cD2eF3g', 36),
  githubPat: key('github_pat_', '11AbCdEf_x', 60),
  aws: key('AKIA', 'IOSFODNN7X', 16),
  slack: key('xoxb-', '1234-5678-', 30),
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${key('', 'dozjgNryP4', 43)}`,
  pem: `-----BEGIN RSA PRIVATE KEY-----\n${key('', 'MIIEpAIBAA', 64)}\n${key('', 'KCAQEAx9z+', 64)}\n-----END RSA PRIVATE KEY-----`,
};

const rewritten = (r: HookResult) => (r.ok ? r.output.updatedOutput : undefined);

describe('secret-redactor', () => {
  let redactor: WasmPlugin;
  const run = (output: string, tool = 'Bash') => redactor.callHook(postToolUse(tool, { command: 'cat .env' }, output));

  beforeAll(async () => {
    redactor = await loadPlugin({ path: wasm });
  });
  afterAll(() => redactor.close());

  it('binds PostToolUse and PostToolUseFailure (a failed call\'s text is output too) on every tool, failing closed', () => {
    expect(redactor.hooks()).toEqual([
      expect.objectContaining({ event: 'PostToolUse', failurePolicy: 'fail-closed' }),
      expect.objectContaining({ event: 'PostToolUseFailure', failurePolicy: 'fail-closed' }),
    ]);
    expect(redactor.hooks().map((h) => h.matcher)).toEqual([undefined, undefined]);
  });

  it.each([
    ['openai-key', `OPENAI=${SECRETS.openai}`, `OPENAI=[REDACTED:openai-key]`],
    ['anthropic-key', `key ${SECRETS.anthropic} end`, `key [REDACTED:anthropic-key] end`],
    ['github-token', `remote: https://${SECRETS.github}@github.com/x`, `remote: https://[REDACTED:github-token]@github.com/x`],
    ['github-token (fine-grained)', `${SECRETS.githubPat}`, `[REDACTED:github-token]`],
    ['aws-access-key', `aws_access_key_id = ${SECRETS.aws}\n`, `aws_access_key_id = [REDACTED:aws-access-key]\n`],
    ['slack-token', `token ${SECRETS.slack}.`, `token [REDACTED:slack-token].`],
    ['jwt', `cookie: session ${SECRETS.jwt};`, `cookie: session [REDACTED:jwt];`],
    ['private-key', `key:\n${SECRETS.pem}\nafter`, `key:\n[REDACTED:private-key]\nafter`],
    ['password', `DB_PASSWORD=hunter22 other=1`, `DB_PASSWORD=[REDACTED:password] other=1`],
    ['token (quoted)', `auth_token: "abc def ghi"`, `auth_token: "[REDACTED:token]"`],
    ['secret', `client_secret='s3cr3t-value'`, `client_secret='[REDACTED:secret]'`],
    ['bearer', `Authorization: Bearer abc.def.ghi`, `Authorization: Bearer [REDACTED:token]`],
    ['api-key in JSON text', `{"name":"x","api_key":"abcd1234"}`, `{"name":"x","api_key":"[REDACTED:api-key]"}`],
  ])('redacts %s', async (_kind, output, expected) => {
    const result = await run(output);
    expect(result).toMatchObject({ ok: true, output: { decision: 'continue' } });
    expect(rewritten(result)).toBe(expected);
  });

  it('redacts several secrets in one output and says which kinds to the user', async () => {
    const result = await run(`a=${SECRETS.openai}\nb=${SECRETS.aws}\n${SECRETS.pem}`);
    expect(rewritten(result)).toBe('a=[REDACTED:openai-key]\nb=[REDACTED:aws-access-key]\n[REDACTED:private-key]');
    expect(result).toMatchObject({
      output: { systemMessage: 'secret-redactor: redacted 3 secret(s) from Bash output: openai-key, aws-access-key, private-key' },
    });
  });

  it('redacts a private key cut off before its END line to the end of the output', async () => {
    expect(rewritten(await run(`x\n${SECRETS.pem.slice(0, 120)}`))).toBe('x\n[REDACTED:private-key]');
  });

  it.each([
    'ls -la\ntotal 0',
    'the task-force met; sk-short',
    'password: null',
    'token=abc',
    'AKIA but too short: AKIA1234',
    'a public key: -----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----',
    'https://example.com:8080/path',
    '',
  ])('leaves %j alone (continue, no rewrite)', async (output) => {
    const result = await run(output);
    expect(result).toMatchObject({ ok: true, output: { decision: 'continue' } });
    expect(rewritten(result)).toBeUndefined();
  });

  it('redacts a key in 30 KB of log output within the default limits', async () => {
    const log = 'GET /health 200 OK in 3ms\n'.repeat(600);
    const result = await run(`${log}leaked ${SECRETS.github}\n${log}`);
    expect(result.ok).toBe(true);
    expect(rewritten(result)).toBe(`${log}leaked [REDACTED:github-token]\n${log}`);
  });

  it('redacts a key in 300 KB of output given a larger fuel budget', async () => {
    const big = await loadPlugin({ path: wasm }, { limits: { fuel: 1_000_000_000, timeoutMs: 5_000, maxMemoryPages: 1024 } });
    const log = 'GET /health 200 OK in 3ms\n'.repeat(6_000);
    const result = await big.callHook(postToolUse('Bash', {}, `${log}leaked ${SECRETS.github}\n${log}`));
    await big.close();
    expect(result.ok).toBe(true);
    expect(rewritten(result)).toBe(`${log}leaked [REDACTED:github-token]\n${log}`);
  });

  it('a redacted secret never reaches the model in an agent run', async () => {
    const seen: string[] = [];
    const host = createHost({
      plugins: [redactor],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        turns: [
          { toolCalls: [{ name: 'Bash', input: { command: 'cat .env' } }] },
          (request) => {
            seen.push(JSON.stringify(request.messages));
            return { text: 'I read the env file.' };
          },
        ],
      }),
      tools: [
        fakeBash(`OPENAI_API_KEY=${SECRETS.openai}\nPORT=8080`),
      ],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('show the env')) events.push(event);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('OPENAI_API_KEY=[REDACTED:openai-key]\\nPORT=8080');
    expect(seen[0]).not.toContain(SECRETS.openai);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success' } });
  });
});
