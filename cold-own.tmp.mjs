const c0 = process.cpuUsage(); let t = performance.now();
for (const m of ['zod', 'protobufjs/minimal.js', 're2js', 'eventsource-parser']) await import(m);
const c1 = process.cpuUsage(c0); const t1 = performance.now();
await import('./dist/index.js');
const c2 = process.cpuUsage(c0); const t2 = performance.now();
console.log('deps', (t1 - t).toFixed(1), 'cpu', ((c1.user + c1.system) / 1000).toFixed(1), '| own', (t2 - t1).toFixed(1), 'cpu', ((c2.user + c2.system - c1.user - c1.system) / 1000).toFixed(1));
