// The real-skills corpus installed and compiled by each tool, the way a user does it: one
// `install file:<skill> --yes` process per skill into a fresh project, then one `compile`.
// kitbash never compiles on install, so Skillsmith installs with --no-compile there: the
// same work. Also timed once: Skillsmith's default (each install recompiles the project).
// Used by bench/real-skills.mjs, which writes the section.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, sep } from 'node:path';
import { median } from './lib/stats.mjs';

function run(argv, cwd, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, code: r.status, out: r.stdout, err: r.stderr };
}
const firstLine = (r) =>
  (r.err || r.out)
    .trim()
    .split('\n')
    .find((l) => l.trim()) ?? 'no message';

/**
 * `root`: the corpus folder; `sources`: [{ dir, name }] below it; `markers`: agent folders made in each fresh project;
 * `skillsmith`/`kitbash`: CLI entry files. Returns the lines of the section body.
 */
export function installCorpusBench({ root, sources, markers, skillsmith, kitbash, runs, withDefault, fail }) {
  const work = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-corpus-'));
  // A private copy of the built CLI: out/ is shared with other builds that may replace it mid-run.
  const frozen = join(skillsmith, '..', '..', 'node_modules', '.cache', `skillsmith-bench-corpus-${process.pid}`);
  mkdirSync(join(frozen, 'bin'), { recursive: true });
  cpSync(join(skillsmith, '..', '..', 'out'), join(frozen, 'out'), { recursive: true });
  cpSync(skillsmith, join(frozen, 'bin', 'skillsmith.cjs'));
  const ss = join(frozen, 'bin', 'skillsmith.cjs');
  let n = 0;
  const project = () => {
    const p = join(work, `p${n++}`);
    mkdirSync(p);
    writeFileSync(join(p, 'kitbash.toml'), '[project]\n');
    for (const m of markers) mkdirSync(join(p, m), { recursive: true });
    return p;
  };
  const env = () => ({ SKILLSMITH_CACHE_DIR: join(work, `cache-${n}`) });
  const tools = {
    kitbash: { install: (s) => [kitbash, 'install', `file:${s.dir}`, '--yes'], compile: [kitbash, 'compile'] },
    skillsmith: {
      install: (s) => [ss, 'install', `file:${s.dir}`, '--yes', '--no-compile'],
      compile: [ss, 'compile'],
    },
  };
  try {
    // Calibration (untimed): the skills both tools install, less those kitbash's compile refuses the project over.
    const refused = { kitbash: new Map(), skillsmith: new Map() };
    for (const [id, t] of Object.entries(tools)) {
      const p = project();
      const e = env();
      for (const s of sources) {
        const r = run(t.install(s), p, e);
        if (r.code !== 0) refused[id].set(s.name, firstLine(r));
      }
    }
    const both = sources.filter((s) => !refused.kitbash.has(s.name) && !refused.skillsmith.has(s.name));
    const uncompilable = new Map();
    {
      const p = project();
      for (const s of both) run(tools.kitbash.install(s), p);
      for (let tries = 0; tries < 20; tries++) {
        const c = run(tools.kitbash.compile, p);
        if (c.code === 0) break;
        const m = /^\s*(?:✗\s*)?([a-z0-9][a-z0-9-]*): /m.exec(`${c.err}\n${c.out}`);
        if (!m || !both.some((s) => s.name === m[1]) || uncompilable.has(m[1]))
          fail(`kitbash compile of the corpus fails for a reason not tied to one skill: ${firstLine(c)}`);
        uncompilable.set(m[1], firstLine(c));
        run([kitbash, 'remove', m[1]], p);
      }
    }
    const set = both.filter((s) => !uncompilable.has(s.name));

    const timed = { kitbash: [], skillsmith: [] };
    const loads = [];
    for (let round = 0; round < runs; round++) {
      const order = round % 2 ? ['skillsmith', 'kitbash'] : ['kitbash', 'skillsmith'];
      for (const id of order) {
        loads.push(os.loadavg()[0]);
        const t = tools[id];
        const p = project();
        const e = env();
        let install = 0;
        for (const s of set) {
          const r = run(t.install(s), p, e);
          if (r.code !== 0) fail(`${id} install of ${s.name} exited ${r.code}: ${firstLine(r)}`);
          install += r.ms;
        }
        const c = run(t.compile, p, e);
        if (c.code !== 0) fail(`${id} compile of the corpus exited ${c.code}: ${firstLine(c)}`);
        timed[id].push({ install, compile: c.ms, total: install + c.ms });
        rmSync(p, { recursive: true, force: true });
      }
    }
    // Skillsmith's batch (SPEC D293): one process from the corpus root — one review, one
    // approval, one commit, one compile (included in its time). Once picking exactly the
    // skills kitbash installed one by one, once with --all (every corpus skill).
    const batchRun = (label, picks) => {
      loads.push(os.loadavg()[0]);
      const p = project();
      const r = run([ss, 'install', `file:${root}`, ...picks, '--yes'], p, env());
      if (r.code !== 0) fail(`skillsmith ${label} exited ${r.code}: ${firstLine(r)}`);
      const compiles = (r.out.match(/^compiled for /gm) ?? []).length;
      if (compiles !== 1) fail(`skillsmith ${label} compiled ${compiles} times, not once`);
      const installed = /^installed (\d+) skills?/m.exec(r.out);
      return { ms: r.ms, installed: installed ? Number(installed[1]) : 0 };
    };
    const batch = {
      set: batchRun(
        'batch install',
        set.flatMap((s) => ['--skill', relative(root, s.dir).split(sep).join('/')]),
      ),
      all: batchRun('install --all', ['--all']),
    };
    let defaultMode;
    if (withDefault) {
      loads.push(os.loadavg()[0]);
      const p = project();
      const e = env();
      let total = 0;
      for (const s of set) {
        const r = run([ss, 'install', `file:${s.dir}`, '--yes'], p, e);
        if (r.code !== 0) fail(`skillsmith install (default) of ${s.name} exited ${r.code}: ${firstLine(r)}`);
        total += r.ms;
      }
      defaultMode = total;
    }
    loads.push(os.loadavg()[0]);
    return report({ sources, set, refused, uncompilable, timed, batch, defaultMode, loads, runs, markers });
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(frozen, { recursive: true, force: true });
  }
}

function report({ sources, set, refused, uncompilable, timed, batch, defaultMode, loads, runs, markers }) {
  const s = (xs) =>
    `${(median(xs) / 1000).toFixed(1)} s (${(Math.min(...xs) / 1000).toFixed(1)}–${(Math.max(...xs) / 1000).toFixed(1)})`;
  const col = (id, k) => s(timed[id].map((x) => x[k]));
  const ratio = median(timed.kitbash.map((x) => x.total)) / median(timed.skillsmith.map((x) => x.total));
  const names = (m) => (m.size ? [...m.keys()].join(', ') : 'none');
  return [
    `${set.length} of the ${sources.length} corpus skills, ${runs} round(s) per tool, the tools alternating (kitbash first in odd rounds); every agent marker (${markers.join(', ')}); each round a fresh project on the disk. 1-min load average per run: ${loads.map((l) => l.toFixed(1)).join(', ')} (the machine is shared).`,
    '',
    '| tool, driven as a user would | installs (one process per skill) | compile | total | per install |',
    '|---|---:|---:|---:|---:|',
    `| kitbash 0.24.1: \`kitbash install file:<skill> --yes\` × ${set.length}, then \`kitbash compile\` | ${col('kitbash', 'install')} | ${col('kitbash', 'compile')} | ${col('kitbash', 'total')} | ${Math.round(median(timed.kitbash.map((x) => x.install)) / set.length)} ms |`,
    `| Skillsmith: \`skillsmith install file:<skill> --yes --no-compile\` × ${set.length}, then \`skillsmith compile\` | ${col('skillsmith', 'install')} | ${col('skillsmith', 'compile')} | ${col('skillsmith', 'total')} | ${Math.round(median(timed.skillsmith.map((x) => x.install)) / set.length)} ms |`,
    `| Skillsmith's batch, which kitbash has no form of: \`skillsmith install file:<corpus> --skill <path> × ${set.length} --yes\` — one process, one review, one approval, one commit, one compile (one run) | ${(batch.set.ms / 1000).toFixed(1)} s | (included, once) | ${(batch.set.ms / 1000).toFixed(1)} s | ${Math.round(batch.set.ms / set.length)} ms |`,
    `| the same with \`--all\`: every corpus skill (${batch.all.installed} installed), one process (one run) | ${(batch.all.ms / 1000).toFixed(1)} s | (included, once) | ${(batch.all.ms / 1000).toFixed(1)} s | ${Math.round(batch.all.ms / Math.max(1, batch.all.installed))} ms |`,
    ...(defaultMode !== undefined
      ? [
          `| Skillsmith's default: \`skillsmith install file:<skill> --yes\` × ${set.length}, each one recompiling the project (one run) | ${(defaultMode / 1000).toFixed(1)} s | (in each install) | ${(defaultMode / 1000).toFixed(1)} s | ${Math.round(defaultMode / set.length)} ms |`,
        ]
      : []),
    '',
    `Ratio of the totals (kitbash median / Skillsmith median): **${ratio.toFixed(2)}×** — target: Skillsmith faster (> 1×): **${ratio > 1 ? 'met' : 'not met'}**.`,
    '',
    `The same ${set.length} skills, kitbash one by one then its compile (median ${(median(timed.kitbash.map((x) => x.total)) / 1000).toFixed(1)} s) against Skillsmith's one batch process with its compile (${(batch.set.ms / 1000).toFixed(1)} s): **${(median(timed.kitbash.map((x) => x.total)) / batch.set.ms).toFixed(2)}×** in Skillsmith's favour${batch.set.ms < median(timed.kitbash.map((x) => x.total)) ? '' : ' (it is slower)'}.`,
    ...(ratio > 1
      ? []
      : [
          '',
          "What bounds it: one process per skill, and the compiles are close, so the gap between the totals is mostly one install's per-process difference times the number of skills. Where one install's time goes, Skillsmith's and kitbash's side by side, is profiled in the install-scaling section (its empty-project columns).",
        ]),
    '',
    `Left out of both (so both tools do the same work): refused by kitbash's install (${refused.kitbash.size}): ${names(refused.kitbash)}; refused by Skillsmith's install (${refused.skillsmith.size}): ${names(refused.skillsmith)}; skills over which kitbash's compile refuses the whole project (${uncompilable.size}): ${[...uncompilable].map(([k, v]) => `${k} (${v})`).join('; ') || 'none'}. The first two rows are driven one process per skill: kitbash has no way to install several skills in one process.`,
  ];
}
