// Every cross-runtime scenario under deno (test/setup/xrt-suite.ts).
import { xrtSuite } from './setup/xrt-suite.js';

xrtSuite('deno');
