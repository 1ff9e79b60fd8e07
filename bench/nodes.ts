/**
 * Other Node.js release lines for `npm run bench:all -- --node 22,24,26`: the
 * official release binary of each line, taken from the npm registry (the
 * `node-<os>-<arch>` packages carry it) and unpacked under `bench/.nodes/`
 * (git-ignored), so the rows run on the maintained lines beside the repo's
 * own Node, measured the same way, with no download from anywhere else.
 *
 * Why: some figures depend on the engine's version (docs/sandbox-instrumentation.md:
 * V8 11.3 in Node 20 moves very large functions to a weaker register
 * allocator), and a user's Node is rarely the repo's.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('./.nodes/', import.meta.url).pathname;

/** `22`, `24.1`: a major line or a version prefix; anything else is refused before npm sees it. */
const LINE = /^\d{2}(\.\d+){0,2}$/;

/**
 * The path of a `node` binary of release line `line` for this machine, fetched once.
 *
 * @example
 *   const node24 = await nodeBinary('24'); // bench/.nodes/24/bin/node
 */
export async function nodeBinary(line: string): Promise<string> {
  if (!LINE.test(line)) throw new Error(`--node: "${line}" is not a Node release line (write e.g. 22,24,26)`);
  const dir = `${root}${line}`;
  const bin = `${dir}/bin/node`;
  if (await access(bin).then(() => true, () => false)) return bin;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${platform}-${process.arch}@${line}`;
  const tmp = `${root}.tmp-${line}-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    process.stderr.write(`fetching ${pkg} from the npm registry…\n`);
    await run('npm', ['pack', pkg, '--silent', '--pack-destination', tmp], { maxBuffer: 1 << 20 });
    const [tgz] = (await readdir(tmp)).filter((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${pkg} left no tarball`);
    await run('tar', ['xzf', `${tmp}/${tgz}`, '-C', tmp, 'package/bin/node']);
    await rm(dir, { recursive: true, force: true });
    await rename(`${tmp}/package`, dir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return bin;
}
