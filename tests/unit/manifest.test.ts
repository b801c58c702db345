import { describe, expect, it } from 'vitest';
import { binaryCompare, validateManifest } from '../../shared/ksf/manifest';
import type { Manifest } from '../../shared/ksf/model';
import { parseToml, type TomlTable } from '../../shared/ksf/toml';

const SKILL = { name: 'demo', version: '1.0.0', description: 'A demo skill for tests.' };
const CONTEXT = { budget: 1500 };

function raw(over: TomlTable = {}): TomlTable {
  return { skill: { ...SKILL }, context: { ...CONTEXT }, ...over };
}

function valid(t: TomlTable): Manifest {
  const r = validateManifest(t);
  if (!r.ok) throw new Error(`expected a valid manifest, got:\n${(r.error.detail ?? []).join('\n')}`);
  return r.value;
}

function problems(t: TomlTable): string[] {
  const r = validateManifest(t);
  if (r.ok) throw new Error('expected the manifest to be invalid');
  return [...(r.error.detail ?? [])];
}

function fromToml(text: string): TomlTable {
  const r = parseToml(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('validateManifest: defaults (SPEC §5.2)', () => {
  it('applies the most restrictive defaults to a minimal manifest', () => {
    const m = valid(raw());
    expect(m).toEqual({
      skill: { name: 'demo', version: '1.0.0', description: 'A demo skill for tests.', authors: [] },
      context: { budget: 1500, standing: 100, disclosure: 'lazy' },
      triggers: { commands: [], auto: [], events: [] },
      permissions: { tools: [], network: false, write: false },
      artifacts: { produces: [], consumes: [] },
      targets: { requires: [], mode: 'skill' },
      lore: { reads: [], writes: [] },
      dependencies: {},
      mcp: { onUnsupported: 'warn', servers: [] },
    });
  });

  it('reads every declared field', () => {
    const m = valid(
      fromToml(`
[skill]
name = "full"
version = "2.3.4-rc.1"
description = "Every table is declared here."
license = "MIT"
homepage = "https://example.com"
authors = ["A", "B"]
[context]
budget = 2000
standing = 0
disclosure = "eager"
[triggers]
commands = ["/full", "/full-2"]
auto = ["on review"]
events = ["pre-push"]
[permissions]
tools = ["read", "bash:git *"]
network = true
write = true
[artifacts]
produces = ["plan@1"]
consumes = ["findings@1"]
[targets]
requires = ["scripts"]
mode = "gate"
[lore]
reads = ["decisions"]
writes = ["map"]
[dependencies]
other = "^1.0.0"
[mcp]
on_unsupported = "error"
`),
    );
    expect(m.skill).toEqual({
      name: 'full',
      version: '2.3.4-rc.1',
      description: 'Every table is declared here.',
      license: 'MIT',
      homepage: 'https://example.com',
      authors: ['A', 'B'],
    });
    expect(m.context).toEqual({ budget: 2000, standing: 0, disclosure: 'eager' });
    expect(m.triggers).toEqual({ commands: ['/full', '/full-2'], auto: ['on review'], events: ['pre-push'] });
    expect(m.permissions).toEqual({ tools: ['read', 'bash:git *'], network: true, write: true });
    expect(m.artifacts).toEqual({ produces: ['plan@1'], consumes: ['findings@1'] });
    expect(m.targets).toEqual({ requires: ['scripts'], mode: 'gate' });
    expect(m.lore).toEqual({ reads: ['decisions'], writes: ['map'] });
    expect(m.dependencies).toEqual({ other: '^1.0.0' });
    expect(m.mcp.onUnsupported).toBe('error');
  });

  it('accepts a budget written as 1500.0', () => {
    expect(
      valid(
        fromToml(
          '[skill]\nname = "demo"\nversion = "1.0.0"\ndescription = "A demo skill for tests."\n[context]\nbudget = 1500.0\n',
        ),
      ).context.budget,
    ).toBe(1500);
  });

  it('accepts the budget and standing bounds', () => {
    expect(valid(raw({ context: { budget: 50, standing: 0 } })).context).toMatchObject({ budget: 50, standing: 0 });
    expect(valid(raw({ context: { budget: 20000, standing: 500 } })).context).toMatchObject({
      budget: 20000,
      standing: 500,
    });
  });

  it('reads a non-string standing as the default 100', () => {
    expect(valid(raw({ context: { budget: 1500, standing: '50' } })).context.standing).toBe(100);
  });

  it('drops array elements of the wrong type', () => {
    const m = valid(
      raw({
        triggers: { commands: ['/ok', 1, true], auto: [2, 'x'], events: [{}, 'ci'] },
        permissions: { tools: ['read', 3, ['nested']] },
        artifacts: { produces: [1, 'plan@1'], consumes: [null, 'findings@1'] },
        targets: { requires: [false, 'hooks'] },
        lore: { reads: [1], writes: ['map', 2] },
        skill: { ...SKILL, authors: ['A', 5] },
      }),
    );
    expect(m.triggers).toEqual({ commands: ['/ok'], auto: ['x'], events: ['ci'] });
    expect(m.permissions.tools).toEqual(['read']);
    expect(m.artifacts).toEqual({ produces: ['plan@1'], consumes: ['findings@1'] });
    expect(m.targets.requires).toEqual(['hooks']);
    expect(m.lore).toEqual({ reads: [], writes: ['map'] });
    expect(m.skill.authors).toEqual(['A']);
  });

  it('reads a non-boolean network or write as false', () => {
    for (const v of ['true', 1, 'yes', [true], {}]) {
      expect(valid(raw({ permissions: { network: v, write: v } })).permissions).toMatchObject({
        network: false,
        write: false,
      });
    }
  });

  it('reads a non-string disclosure as lazy', () => {
    expect(valid(raw({ context: { budget: 1500, disclosure: 1 } })).context.disclosure).toBe('lazy');
    expect(valid(raw({ context: { budget: 1500, disclosure: true } })).context.disclosure).toBe('lazy');
  });

  it('reads any mode but "gate" as skill', () => {
    expect(valid(raw({ targets: { mode: 'gate' } })).targets.mode).toBe('gate');
    for (const mode of ['skill', 'Gate', 'gates', 1, undefined])
      expect(valid(raw({ targets: { mode } })).targets.mode).toBe('skill');
  });

  it('reads any on_unsupported but "error" as warn', () => {
    expect(valid(raw({ mcp: { on_unsupported: 'error' } })).mcp.onUnsupported).toBe('error');
    for (const v of ['warn', 'ERROR', 'fail', 1])
      expect(valid(raw({ mcp: { on_unsupported: v } })).mcp.onUnsupported).toBe('warn');
  });

  it('reads a table given as a non-table value as an empty table', () => {
    const m = valid(raw({ triggers: 1, permissions: 'all', lore: [], dependencies: 'x', mcp: true }));
    expect(m.triggers).toEqual({ commands: [], auto: [], events: [] });
    expect(m.permissions).toEqual({ tools: [], network: false, write: false });
    expect(m.dependencies).toEqual({});
    expect(m.mcp.servers).toEqual([]);
  });

  it('drops non-string dependency ranges', () => {
    expect(valid(raw({ dependencies: { a: '^1.0.0', b: 1, c: { version: '1' } } })).dependencies).toEqual({
      a: '^1.0.0',
    });
  });

  it('ignores non-string license and homepage', () => {
    const m = valid(raw({ skill: { ...SKILL, license: 1, homepage: ['x'] } }));
    expect('license' in m.skill).toBe(false);
    expect('homepage' in m.skill).toBe(false);
  });

  it('reads MCP servers in name order, with defaults, ignoring non-table entries', () => {
    const m = valid(
      raw({
        mcp: {
          servers: {
            zeta: { command: 'z', tools: ['a'] },
            alpha: {
              transport: 'sse',
              url: 'https://x.example',
              tools: ['*'],
              timeout_ms: 500,
              env: { A: 'x', B: 1 },
              headers: { H: '${T}' },
            },
            Beta: { transport: 7, args: ['--x', 1] },
            skip: 'not a table',
          },
        },
      }),
    );
    expect(m.mcp.servers.map((s) => s.name)).toEqual(['Beta', 'alpha', 'zeta']);
    const [beta, alpha, zeta] = m.mcp.servers;
    expect(beta).toEqual({ name: 'Beta', transport: 'stdio', args: ['--x'], env: {}, headers: {}, tools: [] });
    expect(alpha).toEqual({
      name: 'alpha',
      transport: 'sse',
      url: 'https://x.example',
      args: [],
      env: { A: 'x' },
      headers: { H: '${T}' },
      tools: ['*'],
      timeoutMs: 500,
    });
    expect(zeta).toMatchObject({ name: 'zeta', transport: 'stdio', command: 'z', tools: ['a'] });
  });

  it('reads a non-table mcp.servers as no servers', () => {
    expect(valid(raw({ mcp: { servers: ['a'] } })).mcp.servers).toEqual([]);
  });
});

describe('validateManifest: hard errors and their messages (SPEC §5.3)', () => {
  it.each([
    ['too short', 'a'],
    ['upper case', 'Demo'],
    ['leading digit', '1demo'],
    ['underscore', 'my_skill'],
    ['leading hyphen', '-demo'],
    ['42 characters', `a${'b'.repeat(41)}`],
    ['empty', ''],
  ])('skill.name: %s', (_what, name) => {
    expect(problems(raw({ skill: { ...SKILL, name } }))).toEqual([
      `skill.name "${name}" must match /^[a-z][a-z0-9-]{1,40}$/`,
    ]);
  });

  it('accepts a 41-character and a 2-character name', () => {
    valid(raw({ skill: { ...SKILL, name: `a${'b'.repeat(40)}` } }));
    valid(raw({ skill: { ...SKILL, name: 'ab' } }));
  });

  it('shows a non-string or missing name as ""', () => {
    expect(problems(raw({ skill: { ...SKILL, name: 42 } }))).toEqual([
      'skill.name "" must match /^[a-z][a-z0-9-]{1,40}$/',
    ]);
    const { name: _n, ...noName } = SKILL;
    expect(problems(raw({ skill: noName }))).toEqual(['skill.name "" must match /^[a-z][a-z0-9-]{1,40}$/']);
  });

  it.each(['1.0', '1.0.0+build.5', 'v1.0.0', '1.0.0-', '01', 'latest'])('skill.version %j is not semver', (version) => {
    expect(problems(raw({ skill: { ...SKILL, version } }))).toEqual([`skill.version "${version}" is not semver`]);
  });

  it('accepts a prerelease version', () => {
    valid(raw({ skill: { ...SKILL, version: '1.2.3-beta.1' } }));
  });

  it('shows a non-string version as ""', () => {
    expect(problems(raw({ skill: { ...SKILL, version: 1 } }))).toEqual(['skill.version "" is not semver']);
  });

  it.each([
    ['9 characters', 'x'.repeat(9)],
    ['201 characters', 'x'.repeat(201)],
    ['empty', ''],
  ])('skill.description of %s', (_what, description) => {
    expect(problems(raw({ skill: { ...SKILL, description } }))).toEqual([
      'skill.description must be 10–200 characters',
    ]);
  });

  it('accepts descriptions of 10 and 200 characters and counts UTF-16 units', () => {
    valid(raw({ skill: { ...SKILL, description: 'x'.repeat(10) } }));
    valid(raw({ skill: { ...SKILL, description: 'x'.repeat(200) } }));
    // 5 astral characters are 10 UTF-16 units
    valid(raw({ skill: { ...SKILL, description: '\u{1F600}'.repeat(5) } }));
    expect(problems(raw({ skill: { ...SKILL, description: '\u{1F600}'.repeat(101) } }))).toEqual([
      'skill.description must be 10–200 characters',
    ]);
  });

  it('a non-string description is a length error', () => {
    expect(problems(raw({ skill: { ...SKILL, description: 12345678901 } }))).toEqual([
      'skill.description must be 10–200 characters',
    ]);
  });

  it.each([
    ['absent', {}],
    ['quoted', { budget: '1500' }],
    ['boolean', { budget: true }],
    ['49', { budget: 49 }],
    ['20001', { budget: 20001 }],
    ['49.5', { budget: 49.5 }],
    ['negative', { budget: -100 }],
  ])('context.budget %s → the range message', (_what, context) => {
    expect(problems(raw({ context }))).toEqual(['context.budget is required and must be 50–20000']);
  });

  it('context.budget 1500.5 → the integer message', () => {
    expect(problems(raw({ context: { budget: 1500.5 } }))).toEqual(['context.budget must be an integer']);
  });

  it('context.standing out of range', () => {
    expect(problems(raw({ context: { budget: 1500, standing: -1 } }))).toEqual(['context.standing must be 0–500']);
    expect(problems(raw({ context: { budget: 1500, standing: 501 } }))).toEqual(['context.standing must be 0–500']);
    expect(problems(raw({ context: { budget: 1500, standing: 500.5 } }))).toEqual(['context.standing must be 0–500']);
  });

  it('context.standing fractional', () => {
    expect(problems(raw({ context: { budget: 1500, standing: 10.5 } }))).toEqual([
      'context.standing must be an integer',
    ]);
  });

  it.each([
    ['triggers', 'commands', '/x', 'string'],
    ['triggers', 'auto', 1, 'number'],
    ['triggers', 'events', true, 'boolean'],
    ['permissions', 'tools', { a: 1 }, 'object'],
    ['artifacts', 'produces', 'plan@1', 'string'],
    ['artifacts', 'consumes', 2, 'number'],
    ['targets', 'requires', 'scripts', 'string'],
    ['lore', 'reads', false, 'boolean'],
    ['lore', 'writes', 'map', 'string'],
  ])('%s.%s given a %s', (table, key, value, type) => {
    expect(problems(raw({ [table]: { [key]: value } }))).toEqual([`${table}.${key} must be an array (got a ${type})`]);
  });

  it.each(['x', '/X', '/1x', '/a/b', '/../../etc/passwd', '/a b', '/', '/a_b', '//a'])('triggers.commands %j', (c) => {
    expect(problems(raw({ triggers: { commands: [c] } }))).toEqual([
      `triggers.commands "${c}" must match /^\\/[a-z][a-z0-9-]*$/ (a slash and a lowercase name — no paths)`,
    ]);
  });

  it('reports each malformed command, in order', () => {
    expect(problems(raw({ triggers: { commands: ['/ok', 'bad', '/also-ok', '/Bad'] } }))).toEqual([
      'triggers.commands "bad" must match /^\\/[a-z][a-z0-9-]*$/ (a slash and a lowercase name — no paths)',
      'triggers.commands "/Bad" must match /^\\/[a-z][a-z0-9-]*$/ (a slash and a lowercase name — no paths)',
    ]);
  });

  it.each(['Lazy', 'always', ''])('context.disclosure %j', (d) => {
    expect(problems(raw({ context: { budget: 1500, disclosure: d } }))).toEqual([
      `context.disclosure "${d}" must be "lazy" or "eager"`,
    ]);
  });

  it('collects every problem, in the documented order', () => {
    const got = problems({
      skill: { name: 'Bad Name', version: '1.0', description: 'short' },
      context: { budget: 10, standing: 900, disclosure: 'sometimes' },
      triggers: { commands: ['nope'], auto: 'x', events: 1 },
      permissions: { tools: 'all' },
      artifacts: { produces: 'a', consumes: 'b' },
      targets: { requires: 'c' },
      lore: { reads: 'd', writes: 'e' },
    });
    expect(got).toEqual([
      'skill.name "Bad Name" must match /^[a-z][a-z0-9-]{1,40}$/',
      'skill.version "1.0" is not semver',
      'skill.description must be 10–200 characters',
      'context.budget is required and must be 50–20000',
      'context.standing must be 0–500',
      'triggers.auto must be an array (got a string)',
      'triggers.events must be an array (got a number)',
      'permissions.tools must be an array (got a string)',
      'artifacts.produces must be an array (got a string)',
      'artifacts.consumes must be an array (got a string)',
      'targets.requires must be an array (got a string)',
      'lore.reads must be an array (got a string)',
      'lore.writes must be an array (got a string)',
      'triggers.commands "nope" must match /^\\/[a-z][a-z0-9-]*$/ (a slash and a lowercase name — no paths)',
      'context.disclosure "sometimes" must be "lazy" or "eager"',
    ]);
  });

  it('a manifest with no [skill] or [context] table reports name, version, description and budget', () => {
    expect(problems({})).toEqual([
      'skill.name "" must match /^[a-z][a-z0-9-]{1,40}$/',
      'skill.version "" is not semver',
      'skill.description must be 10–200 characters',
      'context.budget is required and must be 50–20000',
    ]);
  });

  it('does not treat a soft-tier problem as a hard error', () => {
    valid(
      raw({
        artifacts: { produces: ['findings@1.0'] },
        triggers: { events: ['on-save'] },
        targets: { mode: 'gait', requires: ['gpu'] },
        lore: { reads: ['nope'] },
        unknown: { x: 1 },
        permissions: { netwrok: true },
      }),
    );
  });
});

describe('binaryCompare', () => {
  it('orders by UTF-16 code unit, upper case before lower case', () => {
    expect(['b', 'B', 'a', 'A', '\u{1F600}', 'é'].sort(binaryCompare)).toEqual(['A', 'B', 'a', 'b', 'é', '\u{1F600}']);
    expect(binaryCompare('a', 'a')).toBe(0);
  });
});
