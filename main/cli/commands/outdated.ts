import { readLockAsyncOrThrow } from '../../services/lock';
import { checkUpdate } from '../../services/install/update';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { plural } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';

const FLAGS = { json: { type: 'boolean' } } as const;

/** One installed skill whose pinned source has moved. */
export interface Outdated {
  readonly name: string;
  /** `digest`: a discovery index's artifact digest, for index sources (SPEC D325). */
  readonly from: { readonly version: string; readonly commit?: string; readonly digest?: string };
  readonly to: { readonly version: string; readonly commit?: string; readonly digest?: string };
  /** Compared with the installed copy, as `update` would show them. */
  readonly files: readonly { readonly path: string; readonly change: '+' | '-' | '~' }[];
  /** The review's escalations (new permissions, powers, scripts, dependencies). */
  readonly escalations: readonly { readonly field: string; readonly line: string }[];
  /** The installed copy carries local edits, which `update` merges. */
  readonly localEdits: boolean;
}

/**
 * `outdated [--json]`: refetch every pinned source and list the skills whose upstream moved,
 * with what changed and what it escalates. Writes nothing. Exit 1 when any is outdated or a
 * source cannot be checked (the answer to "is everything current?" is no), 0 otherwise.
 */
export async function runOutdated(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length) throw new CodedError('invalid-request', 'usage: skillsmith outdated [--json]');
  const entries = [...(await readLockAsyncOrThrow(io.cwd)).entries].sort((a, b) => (a.name < b.name ? -1 : 1));
  const found: Outdated[] = [];
  let failed = 0;
  for (const entry of entries) {
    const c = await checkUpdate(io.cwd, entry, { compile: false, merge: false });
    if (c.kind === 'failed') {
      io.err(`✗ ${c.message}\n`);
      failed++;
      continue;
    }
    if (c.kind === 'up-to-date') continue;
    try {
      const root = c.review.nodes[0]!;
      found.push({
        name: entry.name,
        from: {
          version: entry.version,
          ...(entry.commit ? { commit: entry.commit } : {}),
          ...(entry.digest ? { digest: entry.digest } : {}),
        },
        to: {
          version: root.version,
          ...(c.review.source.commit ? { commit: c.review.source.commit } : {}),
          ...(c.review.source.digest ? { digest: c.review.source.digest } : {}),
        },
        files: c.files.map((f) => ({ path: f.path, change: f.change })),
        escalations: (c.review.changes ?? [])
          .filter((x) => x.escalation)
          .map((x) => ({ field: x.field, line: x.line })),
        localEdits: c.localEdits,
      });
    } finally {
      await c.staged.dispose();
    }
  }
  if (flags.json) io.out(`${JSON.stringify(found, null, 2)}\n`);
  else {
    for (const o of found) io.out(render(o));
    io.out(
      `${plural(found.length, 'skill')} outdated · ${entries.length - found.length - failed} up to date${failed ? ` · ${failed} not checked` : ''}\n`,
    );
  }
  return found.length || failed ? EXIT.failed : EXIT.ok;
}

function render(o: Outdated): string {
  const mark = (v: Outdated['from']) => v.commit?.slice(0, 12) ?? v.digest?.slice(0, 'sha256:'.length + 12);
  const at = (v: Outdated['from']) => `${escapeTerminal(v.version)}${mark(v) ? ` (${escapeTerminal(mark(v)!)})` : ''}`;
  const count = (c: '+' | '-' | '~') => o.files.filter((f) => f.change === c).length;
  const lines = [
    `${escapeTerminal(o.name)}: ${at(o.from)} → ${at(o.to)}`,
    `  files: ${count('+')} added, ${count('~')} changed, ${count('-')} removed`,
    ...o.files.map((f) => `    ${f.change} ${escapeTerminal(f.path)}`),
    ...(o.escalations.length
      ? ['  escalations:', ...o.escalations.map((e) => `    ${escapeTerminal(e.line)}`)]
      : ['  escalations: none']),
    ...(o.localEdits ? ['  local edits: yes — update merges them and backs up your copy first'] : []),
  ];
  return `${lines.join('\n')}\n`;
}
