import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
for (const m of ['zod', 'protobufjs/minimal.js', 're2js', 'eventsource-parser']) await import(m);
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start');
await import('./dist/index.js');
const { profile } = await s.post('Profiler.stop');
writeFileSync('/tmp/cold-own.cpuprofile', JSON.stringify(profile));
