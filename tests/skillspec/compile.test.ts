/** compile: frontmatter description, skill names, the loader targets and the markdown rendering. */
import { describe, expect, it } from 'vitest';
import {
  compileSpec,
  resolveSpecRendering,
  selectionDescription,
  sentenceList,
  skillNameOf,
} from '../../shared/skillspec/compile';
import { doc, load } from './helpers';

const RICH = doc(`activation:
  summary: Route repository checks.
  keywords: [repo, readiness]
entry: {prompt: Decide first., decision_required: true}
applies_when:
  - user_intent: [check a repo, run the shell command]
  - other: 1
routes:
  - {id: later, label: Later}
  - {id: first, label: First, rank: 1, description: runs a CLI process, checks: [c1]}
rules:
  - id: r
    when: {user_says_any: [branch, "in sync"], task_recurrence_likely: true}
    prefer: first
    route_order: [first, later]
    forbid: [guessing]
    allow: {native_search: url_discovery_only, nested: {a: [1, 2]}}
    reason: Because.
  - id: empty
dependencies:
  gh: {kind: cli, command: gh, permission: {required: true, safety: local_read}}
  browser: {kind: browser}
commands:
  exec_run: {template: "echo hi", safety: local_write, requires: {dependencies: [gh]}}
closures:
  crystallize_flow: {steps: [a, b]}
tests:
  - {name: does it, input: "check the \\"branch\\"", expect: {route: first, forbid: [guessing]}}
`);

describe('names and lists', () => {
  it('turns an id into a skill name', () => {
    expect(skillNameOf('dev.repo_readiness')).toBe('dev-repo-readiness');
    expect(skillNameOf('..A__b..')).toBe('a-b');
  });

  it('joins sentences without an Oxford comma', () => {
    expect(sentenceList([])).toBe('');
    expect(sentenceList(['a'])).toBe('a');
    expect(sentenceList(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('accepts the reference target names as aliases', () => {
    expect(resolveSpecRendering('claude-skill')).toBe('claude');
    expect(resolveSpecRendering('codex-skill')).toBe('codex');
    expect(resolveSpecRendering('markdown')).toBe('markdown');
    expect(resolveSpecRendering('html')).toBeUndefined();
  });
});

describe('the frontmatter description', () => {
  it('leads with the activation summary, then keywords, intents, capabilities and the decision requirement', () => {
    const d = selectionDescription(load(RICH));
    const parts = d.split('. ');
    expect(parts[0]).toBe('Route repository checks');
    expect(parts[1]).toBe('Use for repo and readiness');
    expect(parts[2]).toBe('Use when the task needs to check a repo and run the shell command');
    expect(parts[3]).toBe(
      'Handles CLI and shell commands, browser handoff and page evidence, process capture and flow crystallization and replay',
    );
    expect(parts[4]).toContain('skillsmith spec decide');
    expect(parts).toHaveLength(6);
  });

  it('falls back to the description when there are no intents', () => {
    expect(selectionDescription(load(doc()))).toMatch(/^Use for a test spec\. /);
  });

  it('stays within 900 bytes, cut at a clause boundary and on a character boundary', () => {
    const long = load(doc(`activation:\n  summary: "${'é'.repeat(300)}, ${'word '.repeat(200)}"\n`));
    const d = selectionDescription(long);
    expect(new TextEncoder().encode(d).length).toBeLessThanOrEqual(900);
    expect(d).toBe('é'.repeat(300));
  });
});

describe('loader targets', () => {
  it('writes identical claude and codex loaders with a Debug-quoted description', () => {
    const spec = load(RICH);
    const claude = compileSpec(spec, 'claude');
    expect(compileSpec(spec, 'codex')).toBe(claude);
    const lines = claude.split('\n');
    expect(lines.slice(0, 4)).toEqual(['---', 'name: t-spec', `description: "${selectionDescription(spec)}"`, '---']);
    expect(lines[5]).toBe('# T');
    expect(claude).toContain('skillsmith spec decide <skill_dir>/skill.spec.yml');
    expect(claude).not.toContain('### `r`');
    expect(claude.endsWith('\n') && !claude.endsWith('\n\n')).toBe(true);
    expect(lines.length).toBeLessThan(60);
  });

  it('takes an explicit skill name', () => {
    expect(compileSpec(load(RICH), 'claude', 'My Skill').split('\n')[1]).toBe('name: my-skill');
  });
});

describe('the markdown target', () => {
  const md = compileSpec(load(RICH), 'markdown');

  it('has no frontmatter and the sections in the reference order', () => {
    expect(md.startsWith('# T\n\nA test spec.\n')).toBe(true);
    expect(md.match(/^## .*$/gm)).toEqual([
      '## Runtime Contract',
      '## Harness Presentation Contract',
      '## Authoring And Revision Contract',
      '## Entry',
      '## Activation',
      '## Routes',
      '## Rules',
      '## Dependencies',
      '## Command Templates',
      '## Closures',
      '## Scenario Tests',
      '## SkillSpec CLI Commands',
    ]);
    expect(md.endsWith('```\n')).toBe(true);
  });

  it('lists routes by rank with unranked last', () => {
    expect(md.indexOf('### `first`')).toBeLessThan(md.indexOf('### `later`'));
    expect(md).toContain('### `later`\n- label: Later\n- rank: unranked\n');
    expect(md).toContain('- checks: c1\n');
  });

  it('renders a rule with its predicate, effects and allow values', () => {
    expect(md).toContain(
      [
        '### `r`',
        '- when:',
        '  - user_says_any: "branch", "in sync"',
        '  - task_recurrence_likely: true',
        '- prefer: `first`',
        '- route_order: `first` -> `later`',
        '- forbid: `guessing`',
        '- allow:',
        '  - `native_search`: "url_discovery_only"',
        '  - `nested`:',
        '    a:',
        '    - 1',
        '    - 2',
        '- reason: Because.',
        '',
      ].join('\n'),
    );
    expect(md).toContain('### `empty`\n- when:\n\n');
  });

  it('renders applies_when and closures as YAML blocks, and tests with Debug-quoted inputs', () => {
    expect(md).toContain(
      '### Applies When\n\n```yaml\nuser_intent:\n- check a repo\n- run the shell command\n```\n```yaml\nother: 1\n```\n',
    );
    expect(md).toContain('### `crystallize_flow`\n```yaml\nsteps:\n- a\n- b\n```\n');
    expect(md).toContain(
      '### does it\n- input: "check the \\"branch\\""\n- expect route: `first`\n- expect forbid: `guessing`\n',
    );
  });

  it('renders commands with their template and requirements', () => {
    expect(md).toContain(
      '### `exec_run`\n- safety: `local_write`\n- template:\n\n```bash\necho hi\n```\n- requires:\n  - dependencies: `gh`\n',
    );
  });
});

describe('YAML fragments', () => {
  it('quote strings that would read back as another type, and keep multi-line strings literal', () => {
    const md = compileSpec(
      load(
        doc("closures:\n  c: {a: 'true', b: '007', c: '1.5', d: '', e: 'yes', f: 'x: y', g: \"two\\nlines\", h: 3}\n"),
      ),
      'markdown',
    );
    expect(md).toContain(
      "### `c`\n```yaml\na: 'true'\nb: '007'\nc: '1.5'\nd: ''\ne: yes\nf: 'x: y'\ng: |-\n  two\n  lines\nh: 3\n```\n",
    );
  });
});
