/**
 * The real agent CLIs the real-agent suites run: the versions pinned in tooling/agents/
 * (package.json + package-lock.json, with integrity), installed once per lock into a cache
 * folder with `npm ci` (npm's own cache keeps the tarballs), never into the repository's
 * node_modules: the app does not ship them and `npm start` never downloads them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';

const PINS = join(repoRoot, 'tooling', 'agents');

export interface AgentBins {
  readonly claude: string;
  readonly codex: string;
  readonly gemini: string;
  /** The folder holding node_modules/ of the install. */
  readonly root: string;
}

function cacheRoot(): string {
  const env = process.env.SKILLSMITH_TEST_AGENTS_DIR;
  if (env) return env;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skillsmith-test-agents');
}

const binsOf = (root: string): AgentBins => ({
  root,
  claude: join(root, 'node_modules', '.bin', 'claude'),
  codex: join(root, 'node_modules', '.bin', 'codex'),
  gemini: join(root, 'node_modules', '.bin', 'gemini'),
});

/** The pinned version of each CLI, from tooling/agents/package.json. */
export const PINNED: Readonly<Record<'claude' | 'codex' | 'gemini', string>> = (() => {
  const deps = (
    JSON.parse(readFileSync(join(PINS, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  ).dependencies;
  return {
    claude: deps['@anthropic-ai/claude-code']!,
    codex: deps['@openai/codex']!,
    gemini: deps['@google/gemini-cli']!,
  };
})();

/**
 * Install the pinned CLIs if this lock's folder is not there yet, and return their
 * paths. A concurrent installer loses the rename race harmlessly. Throws with npm's last
 * lines when the install fails (no registry): a caller gates the suite on it.
 */
export function ensureAgents(): AgentBins {
  const lock = readFileSync(join(PINS, 'package-lock.json'));
  const key = createHash('sha256').update(lock).digest('hex').slice(0, 16);
  const base = cacheRoot();
  const dest = join(base, key);
  const bins = binsOf(dest);
  if (existsSync(join(dest, '.complete'))) return bins;
  mkdirSync(base, { recursive: true });
  const tmp = mkdtempSync(join(base, `.install-${process.pid}-`));
  try {
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(PINS, f), join(tmp, f));
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 15 * 60_000,
    });
    if (r.status !== 0) {
      const tail = `${r.stderr ?? ''}${r.error?.message ?? ''}`.trim().split('\n').slice(-5).join(' | ');
      throw new Error(`installing the pinned agent CLIs (tooling/agents) failed: ${tail}`);
    }
    for (const [name, bin] of Object.entries(binsOf(tmp))) {
      if (name === 'root') continue;
      const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
      if (v.status !== 0) throw new Error(`${bin} --version failed after install: ${v.stderr || v.error?.message}`);
    }
    copyFileSync(join(PINS, 'package-lock.json'), join(tmp, '.complete'));
    try {
      renameSync(tmp, dest);
    } catch {
      // Another process installed the same lock first: its copy is as good as ours.
      if (!existsSync(join(dest, '.complete'))) throw new Error(`could not move the agent install into ${dest}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bins;
}
