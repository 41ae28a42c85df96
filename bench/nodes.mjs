// The Node versions trk is proven on: the machine's own and the majors below, each unpacked from the npm
// registry's `node-linux-<arch>` package (the registry is all CI can reach) into a cache folder.
//
//   node bench/nodes.mjs install   fetches the missing majors, prints one `bin` folder per line
//   node bench/nodes.mjs list      prints the installed ones, machine's first
//   node bench/nodes.mjs majors    prints the majors besides the machine's
//
// The benchmarks import `installedNodes()` to run on every installed Node.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Majors tested besides the machine's own (Node 20 today): the maintenance and the active LTS lines. */
export const MAJORS = [22, 24];

export const CACHE =
  process.env.TRK_NODE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'trk-node');

const ARCH = { x64: 'x64', arm64: 'arm64' }[process.arch];

/** `{ version, execPath }` of the machine's Node and of every cached major, without duplicates. */
export function installedNodes() {
  const nodes = [{ version: process.version, execPath: process.execPath }];
  for (const major of MAJORS) {
    const execPath = path.join(CACHE, `v${major}`, 'bin', 'node');
    if (!existsSync(execPath)) continue;
    const version = spawnSync(execPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (version && !nodes.some((n) => n.version === version)) nodes.push({ version, execPath });
  }
  return nodes;
}

/** Unpacks the newest `node-linux-<arch>@major` into the cache unless it is there; returns its bin folder. */
export function install(major) {
  const dir = path.join(CACHE, `v${major}`);
  const bin = path.join(dir, 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;
  if (!ARCH || process.platform !== 'linux') throw new Error(`no node package for ${process.platform}-${process.arch}`);
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), `node${major}-`));
  try {
    const pack = spawnSync('npm', ['pack', `node-linux-${ARCH}@${major}`, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (pack.status !== 0 || !tgz) throw new Error(`npm pack node-linux-${ARCH}@${major} failed`);
    const tar = spawnSync('tar', ['xzf', path.join(work, tgz), '-C', work, 'package/bin/node', 'package/LICENSE'], {
      stdio: 'inherit',
    });
    if (tar.status !== 0) throw new Error(`could not unpack ${tgz}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(path.join(work, 'package'), dir);
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verb = process.argv[2];
  if (verb === 'install') for (const major of MAJORS) console.log(install(major));
  else if (verb === 'list') for (const n of installedNodes()) console.log(`${n.version}\t${n.execPath}`);
  else if (verb === 'majors') console.log(MAJORS.join(' '));
  else {
    console.error('usage: node bench/nodes.mjs install|list|majors');
    process.exitCode = 2;
  }
}
