/** The JSON routes: sessions, prompts, control requests and plugins. */
import { Hono } from 'hono';
import { z } from 'zod';
import { SHA256_PIN, SHA256_PIN_RULE } from '../sandbox/digest.js';
import { controlCancelBodySchema, controlResponseBodySchema } from './control-types.js';
import { ApiError } from './errors.js';
import { pageQuery, pageResponse } from './paging.js';
import { createSessionSchema } from './session-view.js';
import { clientOf } from './per-client.js';
import { pluginViews } from './plugins.js';
import { PluginLoadGate } from './plugin-loads.js';
import type { PluginNetwork } from './plugin-url.js';
import type { SessionRegistry } from './sessions.js';
import type { ServerHost } from './types.js';
import { jsonBody, param } from './validate.js';

const promptSchema = z.object({ prompt: z.string().min(1).max(1_000_000) }).strict();

const loadPluginSchema = z
  .object({
    // Bounded: what a route keeps of its body while it runs (a load: up to a minute of download) is the parsed value.
    path: z.string().min(1).max(4096).optional(),
    url: z.url().max(8192).optional(),
    // Either case, as a config file's pin: the load compares it lower-cased.
    sha256: z.string().regex(SHA256_PIN, `expected ${SHA256_PIN_RULE}`).optional(),
  })
  .strict()
  .refine((b) => (b.path === undefined) !== (b.url === undefined), 'give exactly one of path or url');

export interface RouteDeps {
  host: ServerHost;
  sessions: SessionRegistry;
  allowPluginLoading: boolean;
  /** How plugin URLs are resolved and which private addresses they may still reach (plugin-url.ts). */
  pluginNetwork: PluginNetwork;
}

export function apiRoutes({ host, sessions, allowPluginLoading, pluginNetwork }: RouteDeps): Hono {
  const app = new Hono();
  const loads = new PluginLoadGate();

  app.post('/session', async (c) => {
    const body = await jsonBody(c, createSessionSchema, true);
    return c.json(await sessions.create(body, clientOf(c.req.raw, c.env)), 201);
  });
  app.get('/session', async (c) => {
    const page = pageQuery(c);
    const { views, total } = await sessions.list(page);
    return pageResponse('sessions', views, page, total);
  });
  app.get('/session/:id', async (c) => c.json(await sessions.get(param(c, 'id'))));
  app.get('/session/:id/messages', async (c) => {
    const id = param(c, 'id');
    const page = pageQuery(c);
    const { messages, total } = await sessions.messages(id, page);
    return pageResponse('messages', messages, page, total);
  });
  app.delete('/session/:id', async (c) => {
    await sessions.delete(param(c, 'id'));
    return c.json({ deleted: true });
  });

  app.post('/session/:id/prompt', async (c) => {
    const id = param(c, 'id');
    const { prompt } = await jsonBody(c, promptSchema);
    await sessions.prompt(id, prompt);
    return c.json({ accepted: true, sessionId: id }, 202);
  });
  // Claude Code's /clear: a new session (201, its view) with this one's options; this one ends, and stays stored.
  app.post('/session/:id/clear', async (c) => c.json(await sessions.clear(param(c, 'id'), clientOf(c.req.raw, c.env)), 201));
  app.post('/session/:id/abort', async (c) => c.json({ aborted: await sessions.abort(param(c, 'id')) }));

  // Control requests live in the store: any replica lists them, and answers reach the replica that asked.
  app.get('/session/:id/control-requests', async (c) => c.json({ requests: await sessions.controls(param(c, 'id')) }));
  app.post('/session/:id/control-response', async (c) => {
    const id = param(c, 'id');
    const body = await jsonBody(c, controlResponseBodySchema);
    return c.json(await sessions.respond(id, body.requestID, body.subtype, body.response));
  });
  app.post('/session/:id/control-cancel', async (c) => {
    const id = param(c, 'id');
    const body = await jsonBody(c, controlCancelBodySchema, true);
    return c.json({ cancelled: await sessions.cancel(id, body.requestID, body.subtype) });
  });

  app.get('/plugins', (c) => c.json({ plugins: pluginViews(host) }));
  app.post('/plugins', async (c) => {
    if (!allowPluginLoading) {
      throw new ApiError('forbidden', 'loading plugins over HTTP is disabled; start the server with allowPluginLoading: true');
    }
    const body = await jsonBody(c, loadPluginSchema);
    if (!host.loadPlugin) throw new ApiError('not_implemented', 'this host cannot load plugins at run time');
    // A URL is fetched from inside the server's network: public addresses only, no redirects, and every download
    // connects to the address checked here, never to a second resolution of the name (plugin-url.ts).
    // Loaded here: POST /plugins is off by default and rare, the server's start does not pay for it.
    const load = host.loadPlugin.bind(host);
    const plugin = await loads.run(async (signal) => {
      if (body.url === undefined) return load({ ...body, signal });
      const address = await (await import('./plugin-url.js')).checkPluginUrl(body.url, pluginNetwork);
      return load({ ...body, redirect: 'error', address, signal });
    }, c.req.raw.signal);
    return c.json({ loaded: plugin.name }, 201);
  });

  return app;
}
