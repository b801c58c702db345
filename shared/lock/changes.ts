import type { Manifest } from '../ksf/model';
import type { SkillTree, TreeEntry } from '../ksf/tree';
import { hashableBytes } from './integrity';
import { isBinary } from '../ksf/text';

/** One manifest field that changed; `escalation` marks a change that asks for more. */
export interface FieldChange {
  readonly field: string;
  readonly before: string;
  readonly after: string;
  readonly escalation: boolean;
  readonly why?: string;
  /** The change as one line, as the reference prints it (`field: before → after  ⚠ escalation[ — why]`). */
  readonly line: string;
}

const yn = (v: boolean) => (v ? 'YES' : 'no');
const list = (v: readonly string[]) => (v.length ? v.join(', ') : 'none');
const runs = (s: Manifest['mcp']['servers'][number]) =>
  s.transport === 'stdio' ? [s.command ?? '', ...s.args].join(' ').trim() : (s.url ?? '');

/**
 * What changed between two manifests, in the reference's field order, plus Skillsmith's
 * escalations: new dependencies and new scripts (passed in, they are files).
 */
export function manifestDelta(
  a: Manifest,
  b: Manifest,
  scripts?: { before: readonly string[]; after: readonly string[] },
): FieldChange[] {
  const out: FieldChange[] = [];
  const field = (name: string, av: string, bv: string, escalation = false, why?: string) => {
    if (av === bv) return;
    const line = `${name}: ${av} → ${bv}${escalation ? `  ⚠ escalation${why ? ` — ${why}` : ''}` : ''}`;
    out.push({ field: name, before: av, after: bv, escalation, ...(why ? { why } : {}), line });
  };
  const note = (name: string, text: string, escalation: boolean, why?: string) => {
    out.push({
      field: name,
      before: '',
      after: text,
      escalation,
      ...(why ? { why } : {}),
      line: `${name}: ${text}${escalation ? `  ⚠ escalation${why ? ` — ${why}` : ''}` : ''}`,
    });
  };
  field('version', a.skill.version, b.skill.version);
  field('description', JSON.stringify(a.skill.description), JSON.stringify(b.skill.description));
  field('budget', `${a.context.budget} tok`, `${b.context.budget} tok`, b.context.budget > a.context.budget);
  field(
    'standing',
    `${a.context.standing} tok/session`,
    `${b.context.standing} tok/session`,
    b.context.standing > a.context.standing,
  );
  field(
    'disclosure',
    a.context.disclosure,
    b.context.disclosure,
    a.context.disclosure === 'lazy' && b.context.disclosure === 'eager',
  );
  field('mode', a.targets.mode, b.targets.mode);
  field(
    'permissions.network',
    yn(a.permissions.network),
    yn(b.permissions.network),
    !a.permissions.network && b.permissions.network,
  );
  field(
    'permissions.write',
    yn(a.permissions.write),
    yn(b.permissions.write),
    !a.permissions.write && b.permissions.write,
  );
  field(
    'permissions.tools',
    list(a.permissions.tools),
    list(b.permissions.tools),
    b.permissions.tools.some((t) => !a.permissions.tools.includes(t)),
  );
  field('requires', list(a.targets.requires), list(b.targets.requires));
  field('commands', list(a.triggers.commands), list(b.triggers.commands));
  field('events', list(a.triggers.events), list(b.triggers.events));
  field('artifacts.produces', list(a.artifacts.produces), list(b.artifacts.produces));
  field('artifacts.consumes', list(a.artifacts.consumes), list(b.artifacts.consumes));
  const deps = (d: Readonly<Record<string, string>>) => list(Object.entries(d).map(([k, v]) => `${k}@${v}`));
  const newDeps = Object.keys(b.dependencies).filter((k) => !(k in a.dependencies));
  field(
    'dependencies',
    deps(a.dependencies),
    deps(b.dependencies),
    newDeps.length > 0,
    newDeps.length ? `new dependencies: ${newDeps.join(', ')}` : undefined,
  );
  const before = new Map(a.mcp.servers.map((s) => [s.name, s]));
  for (const s of b.mcp.servers) {
    const prev = before.get(s.name);
    if (!prev) {
      field(
        `mcp.servers.${s.name}`,
        '(absent)',
        `${s.transport} ${runs(s)}`,
        true,
        "a new MCP server will run with your agent's permissions",
      );
      continue;
    }
    field(`mcp.servers.${s.name}`, runs(prev), runs(s), true, 'same server name, different program');
    field(`mcp.servers.${s.name}.transport`, prev.transport, s.transport);
    const widened = s.tools.includes('*') ? !prev.tools.includes('*') : s.tools.some((t) => !prev.tools.includes(t));
    if (JSON.stringify(prev.tools) !== JSON.stringify(s.tools)) {
      const line = `mcp.servers.${s.name}.tools: ${prev.tools.join(', ') || 'none'} → ${s.tools.join(', ') || 'none'}${widened ? '  ⚠ escalation — the tool allowlist grew' : ''}`;
      out.push({
        field: `mcp.servers.${s.name}.tools`,
        before: prev.tools.join(', ') || 'none',
        after: s.tools.join(', ') || 'none',
        escalation: widened,
        ...(widened ? { why: 'the tool allowlist grew' } : {}),
        line,
      });
    }
    const newKeys = [...Object.keys(s.env), ...Object.keys(s.headers)].filter(
      (k) => !(k in prev.env) && !(k in prev.headers),
    );
    if (newKeys.length)
      note(
        `mcp.servers.${s.name}`,
        `new env/header ${newKeys.join(', ')}`,
        true,
        'a new value is passed to this server',
      );
  }
  for (const s of a.mcp.servers)
    if (!b.mcp.servers.some((x) => x.name === s.name)) note(`mcp.servers.${s.name}`, 'removed', false);
  if (scripts) {
    const added = scripts.after.filter((p) => !scripts.before.includes(p));
    if (added.length)
      field('scripts', list(scripts.before), list(scripts.after), true, `new scripts: ${added.join(', ')}`);
  }
  return out;
}

export interface FileChange {
  readonly path: string;
  readonly change: '+' | '-' | '~';
  /** Binary or symlink: compared, not line-diffed. */
  readonly opaque: boolean;
  readonly before?: string;
  readonly after?: string;
}

const dec = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function view(e: TreeEntry | undefined): { key: string; text?: string; opaque: boolean } | undefined {
  if (!e || e.kind === 'dir') return undefined;
  if (e.kind === 'symlink') return { key: `symlink → ${e.target}`, opaque: true };
  if (isBinary(e.bytes)) return { key: `bin:${Array.from(e.bytes).join(',')}`, opaque: true };
  const text = dec.decode(hashableBytes(e.bytes));
  return { key: `txt:${text}`, text, opaque: false };
}

/**
 * Files removed or changed (in the first tree's walk order), then files added (in the
 * second's), as the reference lists them; text is compared CRLF-normalised.
 */
export function fileChanges(a: SkillTree, b: SkillTree): FileChange[] {
  const files = (t: SkillTree) => t.entries.filter((e) => e.kind !== 'dir');
  const bm = new Map(files(b).map((e) => [e.path, e]));
  const am = new Map(files(a).map((e) => [e.path, e]));
  const out: FileChange[] = [];
  const push = (p: string, va: ReturnType<typeof view>, vb: ReturnType<typeof view>) => {
    const change = !va ? '+' : !vb ? '-' : '~';
    const opaque = (va?.opaque ?? false) || (vb?.opaque ?? false);
    out.push({
      path: p,
      change,
      opaque,
      ...(va?.text !== undefined ? { before: va.text } : {}),
      ...(vb?.text !== undefined ? { after: vb.text } : {}),
    });
  };
  for (const e of files(a)) {
    const va = view(e);
    const vb = view(bm.get(e.path));
    if (va && vb && va.key === vb.key) continue;
    push(e.path, va, vb);
  }
  for (const e of files(b)) if (!am.has(e.path)) push(e.path, undefined, view(e));
  return out;
}
