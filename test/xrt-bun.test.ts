// Every cross-runtime scenario under bun (test/setup/xrt-suite.ts).
import { xrtSuite } from './setup/xrt-suite.js';

xrtSuite('bun');
