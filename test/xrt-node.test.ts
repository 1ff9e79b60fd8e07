// Every cross-runtime scenario under node (test/setup/xrt-suite.ts).
import { xrtSuite } from './setup/xrt-suite.js';

xrtSuite('node');
