import * as w from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { rawRequest } from './raw-http.ts';
const host = w.createHost({ model: w.scriptedModel({ rules: [{ when: () => true, reply: { text: 'hi' } }] }) });
const server = createServer(host, { port: 0 });
const { port } = await server.listen();
const P = (extra: string[], body = '{}', path = '/session') => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra.map((h) => h + '\r\n').join('')}Connection: close\r\n\r\n${body}`;
const cases: [string, string][] = [
  ['text/plain', P(['Content-Type: text/plain', 'Content-Length: 2'])],
  ['no CT', P(['Content-Length: 2'])],
  ['Origin null', P(['Content-Type: application/json', 'Origin: null', 'Content-Length: 2'])],
  ['sfs cross-site no origin', P(['Content-Type: application/json', 'Sec-Fetch-Site: cross-site', 'Content-Length: 2'])],
  ['sfs same-site no origin', P(['Content-Type: application/json', 'Sec-Fetch-Site: same-site', 'Content-Length: 2'])],
  ['sfs none', P(['Content-Type: application/json', 'Sec-Fetch-Site: none', 'Content-Length: 2'])],
  ['Origin other port', P(['Content-Type: application/json', 'Origin: http://127.0.0.1:1', 'Content-Length: 2'])],
  ['Origin https same', P(['Content-Type: application/json', `Origin: https://127.0.0.1:${port}`, 'Content-Length: 2'])],
  ['Origin twice', P(['Content-Type: application/json', `Origin: http://127.0.0.1:${port}`, 'Origin: http://evil.test', 'Content-Length: 2'])],
  ['Host evil', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: evil.test')],
  ['Host twice', P(['Host: evil.test', 'Content-Type: application/json', 'Content-Length: 2'])],
  ['Host 127.0.0.1.evil', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: 127.0.0.1.nip.io')],
  ['Host localhost.', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: localhost.')],
  ['Host 0.0.0.0', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: 0.0.0.0')],
  ['Host 2130706433', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: 2130706433')],
  ['Host [::ffff:127.0.0.1]', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: [::ffff:127.0.0.1]')],
  ['Host 127.1', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: 127.1')],
  ['Host x@127.0.0.1', P(['Content-Type: application/json', 'Content-Length: 2']).replace('Host: 127.0.0.1', 'Host: evil.test@127.0.0.1')],
  ['abs-URI evil', P(['Content-Type: application/json', 'Content-Length: 2']).replace('POST /session', 'POST http://evil.test/session')],
  ['abs-URI evil host ok', P(['Content-Type: application/json', 'Content-Length: 2']).replace('POST /session', 'POST http://127.0.0.1/session').replace('Host: 127.0.0.1', 'Host: evil.test')],
  ['dup CL same', P(['Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 2'])],
  ['dup CL diff', P(['Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 5'])],
  ['CL list', P(['Content-Type: application/json', 'Content-Length: 2, 2'])],
  ['CL+TE', P(['Content-Type: application/json', 'Content-Length: 2', 'Transfer-Encoding: chunked'], '2\r\n{}\r\n0\r\n\r\n')],
  ['TE chunked,identity', P(['Content-Type: application/json', 'Transfer-Encoding: chunked, identity'], '2\r\n{}\r\n0\r\n\r\n')],
  ['TE xchunked', P(['Content-Type: application/json', 'Transfer-Encoding: xchunked'], '2\r\n{}\r\n0\r\n\r\n')],
  ['TE twice', P(['Content-Type: application/json', 'Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], '2\r\n{}\r\n0\r\n\r\n')],
  ['TE space', P(['Content-Type: application/json', 'Transfer-Encoding : chunked'], '2\r\n{}\r\n0\r\n\r\n')],
  ['CL +2', P(['Content-Type: application/json', 'Content-Length: +2'])],
  ['obs-fold', P(['Content-Type: application/json', 'Content-Length: 2', 'X-A: a', ' b'])],
  ['chunk ext', P(['Content-Type: application/json', 'Transfer-Encoding: chunked'], '2;x=y\r\n{}\r\n0\r\n\r\n')],
  ['chunk LF only', P(['Content-Type: application/json', 'Transfer-Encoding: chunked'], '2\n{}\n0\n\n')],
  ['bare LF header', `POST /session HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: 2\nConnection: close\n\n{}`],
  ['HTTP/1.0 no host', `POST /session HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`],
  ['GET traversal', `GET /session/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['GET traversal2', `GET /session/%2e%2e/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['GET id long', `GET /session/${'a'.repeat(5000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['GET id nul', `GET /session/ses%00x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['GET id redis glob', `GET /session/*:* HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['GET id braces', `GET /session/%7Bx%7D HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
  ['pipelined smuggle', P(['Content-Type: application/json', 'Content-Length: 2', 'Connection: keep-alive'], '{}').replace('Connection: close\r\n', '') + `GET /session HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n`],
];
for (const [name, raw] of cases) {
  const r = await rawRequest(port, raw, 1500);
  const statuses = [...(r.head + '\r\n\r\n' + r.body).matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => m[1]).join(',');
  console.log(`${runtimeName()} ${name.padEnd(28)} ${statuses || '0'} ${r.body.replace(/\s+/g, ' ').slice(0, 110)}`);
}
await server.close(); process.exit(0);
