import { describe, expect, it } from 'vitest';
import { parseToml, type TomlTable } from '../../shared/ksf/toml';
import { schemaWarnings } from '../../shared/lint/schema-warnings';
import { check, lintTree, manifested, manifestToml, mustCheck } from './helpers';

function table(text: string): TomlTable {
  const r = parseToml(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const BASE = manifestToml();

describe('schemaWarnings (SPEC §9.2)', () => {
  it('is empty for a clean manifest using every known table', () => {
    expect(
      schemaWarnings(
        table(`${BASE}
[triggers]
commands = ["/demo"]
auto = ["x"]
events = ["pre-push", "pre-commit", "ci", "pr-open"]
[permissions]
tools = []
network = false
write = false
[artifacts]
produces = []
consumes = []
[targets]
requires = ["scripts", "hooks", "subagents", "network"]
mode = "gate"
[lore]
reads = ["decisions", "conventions"]
writes = ["invariants", "map"]
[dependencies]
anything-goes = "^1"
[mcp]
on_unsupported = "warn"
[mcp.servers.fs]
transport = "stdio"
command = "fs"
args = []
tools = ["a"]
timeout_ms = 10
[mcp.servers.fs.env]
FREE_FORM = "x"
[mcp.servers.fs.headers]
Also-Free = "y"
`),
      ),
    ).toEqual([]);
  });

  it('warns on each unknown top-level table or key', () => {
    expect(schemaWarnings(table(`stray = 1\n${BASE}\n[extras]\na = 1\n`))).toEqual([
      'unknown table [stray] — typo or unsupported, ignored',
      'unknown table [extras] — typo or unsupported, ignored',
    ]);
  });

  it('warns on an unknown key in each fixed table (D11)', () => {
    const w = schemaWarnings(
      table(`[skill]
name = "demo"
version = "1.0.0"
description = "A demo skill used by the unit tests."
nmae = "typo"
[context]
budget = 1500
standing_limit = 3
[triggers]
command = ["/x"]
[permissions]
netwrok = true
[artifacts]
produce = []
[targets]
modes = "gate"
[lore]
read = []
[mcp]
servers_extra = 1
`),
    );
    expect(w).toEqual([
      'unknown key skill.nmae — typo or unsupported, ignored',
      'unknown key context.standing_limit — typo or unsupported, ignored',
      'unknown key triggers.command — typo or unsupported, ignored',
      'unknown key permissions.netwrok — typo or unsupported, ignored',
      'unknown key artifacts.produce — typo or unsupported, ignored',
      'unknown key targets.modes — typo or unsupported, ignored',
      'unknown key lore.read — typo or unsupported, ignored',
      'unknown key mcp.servers_extra — typo or unsupported, ignored',
    ]);
  });

  it('warns on an unknown key in an MCP server table', () => {
    expect(schemaWarnings(table(`${BASE}\n[mcp.servers.fs]\ncommand = "fs"\ntools = ["a"]\ntimeout = 5\n`))).toEqual([
      'unknown key mcp.servers.fs.timeout — typo or unsupported, ignored',
    ]);
  });

  it('does not treat [dependencies] keys as fixed', () => {
    expect(schemaWarnings(table(`${BASE}\n[dependencies]\nwhatever = "1"\nother = "2"\n`))).toEqual([]);
  });

  it('warns on enum values outside their sets, in the documented order', () => {
    const w = schemaWarnings(
      table(`${BASE}
[lore]
writes = ["notes"]
reads = ["map", "history"]
[targets]
requires = ["gpu", "scripts"]
mode = "gait"
[triggers]
events = ["on-save", "ci", "push"]
`),
    );
    expect(w).toEqual([
      'triggers.events "on-save" is not one of pre-push, pre-commit, ci, pr-open',
      'triggers.events "push" is not one of pre-push, pre-commit, ci, pr-open',
      'targets.requires "gpu" is not one of scripts, hooks, subagents, network',
      'lore.reads "history" is not one of decisions, conventions, invariants, map',
      'lore.writes "notes" is not one of decisions, conventions, invariants, map',
      'targets.mode "gait" is not one of skill, gate (treated as skill)',
    ]);
  });

  it('puts unknown tables first, then unknown keys, then enums, then mode', () => {
    const w = schemaWarnings(table(`${BASE}\n[targets]\nmode = "x"\n[triggers]\nevents = ["y"]\nextra = 1\n[zzz]\n`));
    expect(w).toEqual([
      'unknown table [zzz] — typo or unsupported, ignored',
      'unknown key triggers.extra — typo or unsupported, ignored',
      'triggers.events "y" is not one of pre-push, pre-commit, ci, pr-open',
      'targets.mode "x" is not one of skill, gate (treated as skill)',
    ]);
  });

  it('ignores non-string enum values and a non-string mode', () => {
    expect(schemaWarnings(table(`${BASE}\n[triggers]\nevents = [1, true]\n[targets]\nmode = 3\n`))).toEqual([]);
  });

  it('is silent about a known table given a non-table value', () => {
    expect(schemaWarnings({ ...table(BASE), triggers: 'x', lore: 1 })).toEqual([]);
  });
});

describe('schema in lintSkill', () => {
  it('is absent when there is nothing to say', () => {
    expect(check(lintTree(manifested('Body')), 'schema')).toBeUndefined();
  });

  it('warns with the lints joined by "; "', () => {
    const c = mustCheck(
      lintTree(manifested('Body', {}, `${BASE}\n[permissions]\nnetwrok = true\n[targets]\nmode = "gait"\n`)),
      'schema',
    );
    expect(c).toEqual({
      id: 'schema',
      status: 'warn',
      detail:
        'unknown key permissions.netwrok — typo or unsupported, ignored; targets.mode "gait" is not one of skill, gate (treated as skill)',
    });
  });
});
