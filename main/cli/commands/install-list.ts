import { WALK_LIMITS } from '../../../shared/lock/discover';
import { plural } from '../../../shared/text/format';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { describePlugin, otherPowersCounts } from '../../../shared/lock/marketplace';
import type { SourceListing } from '../../services/install/listing';
import { EXIT, type CliIo, type ExitCode } from '../io';

export const NO_SKILL = `no skill found — no folder holding a SKILL.md or skill.toml (every folder up to ${WALK_LIMITS.depth} levels deep was looked through, except version-control, node_modules and vendored ones), and no plugin or marketplace manifest naming one`;

const NAME_WIDTH = 32;
const PATH_WIDTH = 48;
const LINE = 140;
const MIN_DESCRIPTION = 40;

/** A description on one line: spaces collapsed, cut at a word boundary near `width` with an ellipsis. */
export function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const cut = flat.slice(0, width - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > width / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/**
 * One line per skill (name, path, description), then one per collection with its members;
 * grouped by plugin when the source has plugins.
 */
export function listingLines(listing: SourceListing): string {
  if (listing.plugins?.length) return pluginLines(listing);
  return skillLines(listing.skills, '') + collectionLines(listing);
}

/** Each plugin (name, version, description, what else it holds), then its skills; then skills of no plugin. */
function pluginLines(listing: SourceListing): string {
  let out = '';
  for (const p of listing.plugins ?? []) {
    const head = `plugin ${describePlugin({ name: p.provenance.name, ...(p.provenance.version ? { version: p.provenance.version } : {}) })}`;
    out += `${escapeTerminal(oneLine(`${head}${p.description ? ` — ${p.description}` : ''}`, LINE))}\n`;
    if (p.problem) {
      out += `  (cannot be listed: ${escapeTerminal(p.problem)})\n`;
      continue;
    }
    const counts = otherPowersCounts(p.powers);
    if (counts) out += `  also holds ${escapeTerminal(counts)} — not installed by Skillsmith\n`;
    const mine = listing.skills.filter((s) => s.plugin?.provenance === p.provenance);
    out += mine.length ? skillLines(mine, '  ') : '  (no skill)\n';
  }
  const rest = listing.skills.filter((s) => s.plugin === undefined);
  if (rest.length) out += `in no plugin:\n${skillLines(rest, '  ')}`;
  return out + collectionLines(listing);
}

function skillLines(skills: SourceListing['skills'], indent: string): string {
  const rows = skills.map((s) => ({
    name: s.name,
    path: s.artifact ?? (s.rel === '' ? '.' : `${s.rel}/`),
    text: s.problem ? `(cannot be installed: ${s.problem})` : s.description,
  }));
  const nameW = Math.min(NAME_WIDTH, Math.max(0, ...rows.map((r) => r.name.length)));
  const pathW = Math.min(PATH_WIDTH, Math.max(0, ...rows.map((r) => r.path.length)));
  const textW = Math.max(MIN_DESCRIPTION, LINE - nameW - pathW - 6);
  return rows
    .map((r) => `${indent}  ${r.name.padEnd(nameW)}  ${r.path.padEnd(pathW)}  ${oneLine(r.text, textW)}`.trimEnd())
    .map((l) => `${l}\n`)
    .join('');
}

function collectionLines(listing: SourceListing): string {
  const lines: string[] = [];
  for (const c of listing.collections)
    lines.push(
      `  collection ${c.name} (${c.rel === '' ? '.' : `${c.rel}/`}): a SKILL.md over ${plural(c.members.length, 'member skill')} — --skill ${c.name} picks them all`,
    );
  return lines.map((l) => `${l}\n`).join('');
}

/** `install <source> --list`: the listing, on stdout (JSON with --json); nothing is staged. */
export function printListing(source: string, listing: SourceListing, flags: { json?: boolean }, io: CliIo): ExitCode {
  if (flags.json) {
    io.out(
      `${JSON.stringify(
        {
          source,
          single: listing.single,
          skills: listing.skills.map((s) => ({
            name: s.name,
            path: s.rel,
            description: s.description,
            ...(s.group ? { group: s.group } : {}),
            ...(s.artifact ? { type: s.artifact } : {}),
            source: s.source,
            ...(s.plugin ? { plugin: s.plugin.provenance.name } : {}),
            ...(s.problem ? { problem: s.problem } : {}),
          })),
          ...(listing.plugins
            ? {
                plugins: listing.plugins.map((p) => ({
                  ...p.provenance,
                  ...(p.description ? { description: p.description } : {}),
                  source: p.source,
                  skills: p.skills,
                  notInstalled: p.powers,
                  ...(p.problem ? { problem: p.problem } : {}),
                })),
              }
            : {}),
          collections: listing.collections.map((c) => ({
            name: c.name,
            path: c.rel,
            description: c.description,
            members: c.members,
          })),
          notes: listing.notes,
        },
        null,
        2,
      )}\n`,
    );
  } else if (listing.skills.length > 0) {
    io.out(`${source} holds ${plural(listing.skills.length, 'skill')}:\n${listingLines(listing)}`);
  }
  if (listing.skills.length === 0) io.err(`${source}: ${NO_SKILL}\n`);
  for (const n of listing.notes) io.err(`note: ${n}\n`);
  return listing.skills.length === 0 ? EXIT.failed : EXIT.ok;
}
