// `wasmhooks/cli`: the `wasmhooks` command as a function, to drive it
// in-process (tests, wrappers). `runCli` never exits the process; it returns
// the exit code. The command itself is dist/cli.js (bin/wasmhooks.mjs starts it).
export { runCli } from '../cli/program.js';
export { processIO, type CliIO, type OutStream } from '../cli/io.js';
export { EXIT, type ExitCode } from '../cli/exit.js';
