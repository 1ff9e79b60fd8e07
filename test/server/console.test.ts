// The browser console in real headless Chromium: a person approves a pending
// tool call in the page, the tool runs, and the page is saved (as docs/console.png with
// WASMHOOKS_UPDATE_DOCS=1; a test run leaves the tree as it found it, else in the temp directory).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { asker, hostWithGuard } from './real-host.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TOKEN = 'console-test-token-0123456789';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`skipping the console test: ${CHROMIUM} is absent (apt-get install -y chromium)`);

let browser: Browser | undefined;
let server: WasmhooksServer | undefined;
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return res.json();
}

describe.skipIf(!hasChromium)('browser console (headless Chromium)', () => {
  it('shows a pending tool call, approves it, streams the result and the hook decision', async () => {
    server = createServer(await hostWithGuard(), { port: 0, token: TOKEN });
    asker.elicit = server.elicit;
    const { url } = await server.listen();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    const page = await browser.newPage({ viewport: { width: 1200, height: 640 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await page.waitForSelector('#status:text("connected")');

    const session = await api(url, 'POST', '/session', { title: 'demo session' });
    await page.waitForSelector(`#sessions li[data-id="${session.id}"]`);
    await page.click(`#sessions li[data-id="${session.id}"]`);
    await page.fill('#prompt', 'say hello');
    await page.click('#send button');
    await page.waitForSelector('.row.end');
    await page.fill('#prompt', 'please use a tool');
    await page.click('#send button');

    const pending = page.locator('.req button.allow');
    await pending.waitFor();
    expect(await page.locator('.req').textContent()).toContain('Write');
    expect(server.broker.pending(session.id)).toHaveLength(1);
    await pending.click();
    await page.waitForSelector('.row.tool:text("← Write: wrote")');
    await page.waitForSelector('.row.text:text("Done writing.")');
    expect(await page.locator('.req').count()).toBe(0);
    expect(server.broker.pending(session.id)).toHaveLength(0);

    const hooks = await page.locator('#hooks').textContent();
    expect(hooks).toMatch(/write-guard PreToolUse → continue · [\d.]+ ms · fuel \d+/);

    // A second call, denied in the page; the screenshot shows it pending first.
    await page.fill('#prompt', 'one more tool please');
    await page.click('#send button');
    await page.locator('.req button.deny').waitFor();
    await page.screenshot({ path: process.env.WASMHOOKS_UPDATE_DOCS ? fileURLToPath(new URL('../../docs/console.png', import.meta.url)) : join(tmpdir(), 'wasmhooks-console.png') });
    await page.click('.req button.deny');
    await page.waitForSelector('.row.deny:text("denied in the console")');
    await page.waitForSelector('.row.end >> nth=2');

    // A tool asks the user a question (an elicitation); the page shows a form and sends the answer.
    await page.fill('#prompt', 'ask me something');
    await page.click('#send button');
    const question = page.locator('.req[data-subtype="elicitation"]');
    await question.waitFor();
    expect(await question.textContent()).toContain('Which file?');
    await question.locator('input[name="file"]').fill('notes.txt');
    await question.locator('button.allow').click();
    await page.waitForSelector('.row.tool:text("← Ask: answer: {\\"action\\":\\"accept\\",\\"content\\":{\\"file\\":\\"notes.txt\\"}}")');
    await page.waitForSelector('.row.end >> nth=3');

    // Clear: a new session (with clearedFrom) is made and selected in the page; the old one stays listed.
    await page.click('#clear');
    await page.waitForSelector(`#sessions li:not(.sel)[data-id="${session.id}"]`);
    const { sessions } = (await api(url, 'GET', '/session')) as { sessions: { id: string; clearedFrom?: string }[] };
    const fresh = sessions.find((s) => s.clearedFrom === session.id);
    expect(fresh).toBeDefined();
    await page.waitForSelector(`#sessions li.sel[data-id="${fresh!.id}"]`);
    expect(errors).toEqual([]);
  }, 60_000);
});
