/**
 * The `markdown` rendering of a SkillSpec: the whole contract, section by section, with no
 * frontmatter. Kept apart from compile.ts because it is most of the rendering code and
 * shares nothing with the thin claude/codex loader but the entry point.
 */
import { Document, isScalar, visit } from 'yaml';
import { defaultRouteOrder } from './decide';
import { debugStr } from './errors';
import { scalarKindOf } from './yaml';
import { sortedEntries, type Predicate, type SkillSpec, type YamlValue } from './model';

const code = (s: string): string => `\`${s}\``;
const codeList = (xs: readonly string[]): string => xs.map(code).join(', ');
const quotedList = (xs: readonly string[]): string => xs.map(debugStr).join(', ');

/** YAML lines in block style, sequences not indented under their key. */
function yamlLines(v: YamlValue): string[] {
  // Quote as the reference's emitter does: single quotes for a string that would read back
  // as something else (null, bool, number, leading-zero digits), a literal block for a
  // multi-line string, plain wherever YAML allows it.
  const d = new Document(v, { version: '1.2' });
  visit(d, {
    Scalar(_key, node) {
      if (!isScalar(node) || typeof node.value !== 'string') return;
      if (node.value.includes('\n')) node.type = 'BLOCK_LITERAL';
      else if (scalarKindOf(node.value) !== 'str') node.type = 'QUOTE_SINGLE';
    },
  });
  const text = d.toString({ indentSeq: false, lineWidth: 0, singleQuote: true });
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && l !== '---')
    .map((l) => l.trimEnd());
}

function yamlBlock(out: string[], v: YamlValue): void {
  out.push('```yaml', ...yamlLines(v), '```');
}

function scalarText(v: YamlValue): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return debugStr(v);
  return undefined;
}

function yamlMap(out: string[], m: Record<string, YamlValue>, indent: number): void {
  const pad = ' '.repeat(indent);
  for (const [k, v] of sortedEntries(m)) {
    const s = scalarText(v);
    if (s !== undefined) out.push(`${pad}- ${code(k)}: ${s}`);
    else out.push(`${pad}- ${code(k)}:`, ...yamlLines(v).map((l) => `${pad}  ${l}`));
  }
}

function predicateLines(out: string[], p: Predicate): void {
  out.push('- when:');
  if (p.user_says_any.length) out.push(`  - user_says_any: ${quotedList(p.user_says_any)}`);
  if (p.user_says_all_groups.length)
    out.push(`  - user_says_all_groups: ${p.user_says_all_groups.map((g) => `[${quotedList(g)}]`).join(', ')}`);
  if (p.task_recurrence_likely !== null) out.push(`  - task_recurrence_likely: ${p.task_recurrence_likely}`);
  if (p.domain_object_task !== null) out.push(`  - domain_object_task: ${p.domain_object_task}`);
  if (p.interactive_prompt_likely !== null) out.push(`  - interactive_prompt_likely: ${p.interactive_prompt_likely}`);
  if (p.command_likely_long_running !== null)
    out.push(`  - command_likely_long_running: ${p.command_likely_long_running}`);
}

function section(out: string[], title: string, intro?: string): void {
  out.push(`## ${title}`, '');
  if (intro) out.push(intro, '');
}

export function writeMarkdown(out: string[], spec: SkillSpec): void {
  out.push(
    `# ${spec.title}`,
    '',
    spec.description,
    '',
    'This is the full SkillSpec contract of the skill, rendered as Markdown.',
    '',
  );

  section(out, 'Runtime Contract');
  out.push(
    '- The structured sections below (routes, rules, states, commands, tests, review notes) are the contract; this prose only orients.',
    '- Decide the route first: rules are checked in file order, a matching rule can prefer a route, reorder routes, forbid substitutes, allow narrow fallbacks, ask bounded questions and schedule follow-up actions.',
    '- An `execution_plan` is a sequence of obligations: finish each phase before the next, and leave the order only through a declared `jump`.',
    "- A `handoff` with `stop_current_skill` ends this skill's work apart from passing the declared context on; `resume_after_handoff` returns here afterwards.",
    '- Forbidden actions stay forbidden even when a tool for them is at hand; ask an elicitation question rather than guess.',
    '',
  );
  section(out, 'Harness Presentation Contract');
  out.push(
    "- Keep the contract's mechanics (decision JSON, traces, ledgers) out of the conversation; report outcomes, evidence and blockers in plain terms.",
    '- Put elicitation questions to the user as the bounded choices they declare.',
    '',
  );
  section(out, 'Authoring And Revision Contract');
  out.push(
    '- Change behaviour by editing `skill.spec.yml`, then validate and run its scenario tests (`skillsmith spec validate`, `skillsmith spec test`) and regenerate this file.',
    '- Identifiers are stable API: renaming one breaks every test, import and reference that names it.',
    '- Give every route-changing, forbid-heavy or elicitation-producing rule a scenario test.',
    '',
  );

  if (spec.entry) out.push('## Entry', '', `Prompt: ${spec.entry.prompt}`, '');

  if (spec.activation || spec.applies_when.length) {
    section(out, 'Activation');
    if (spec.activation) {
      const a = spec.activation;
      out.push(`- summary: ${a.summary}`);
      if (a.keywords.length) out.push(`- keywords: ${a.keywords.join(', ')}`);
      if (a.priority !== null) out.push(`- priority: ${a.priority}`);
      out.push('');
    }
    if (spec.applies_when.length) {
      out.push('### Applies When', '');
      for (const h of spec.applies_when) yamlBlock(out, h);
      out.push('');
    }
  }

  if (spec.routes.length) {
    section(
      out,
      'Routes',
      'Routes are tried in rank order (lowest first) unless a matching rule picks a route or replaces the order.',
    );
    const byId = new Map(spec.routes.map((r) => [r.id, r]));
    // Same order as the default route order; ids are unique in a valid spec.
    const seen = new Set<string>();
    for (const id of defaultRouteOrder(spec)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const r = byId.get(id)!;
      out.push(`### ${code(r.id)}`, `- label: ${r.label}`, `- rank: ${r.rank ?? 'unranked'}`);
      if (r.description !== null) out.push(`- description: ${r.description}`);
      if (r.checks.length) out.push(`- checks: ${r.checks.join(', ')}`);
      if (r.handoff) {
        const h = r.handoff;
        out.push('- handoff:', `  - to_skill: ${code(h.to_skill)}`, `  - boundary: ${code(h.boundary)}`);
        if (h.pass_context.length) out.push(`  - pass_context: ${h.pass_context.join(', ')}`);
        if (h.forbid.length) out.push(`  - forbid: ${h.forbid.join(', ')}`);
        if (h.reason !== null) out.push(`  - reason: ${h.reason}`);
      }
      if (r.execution_plan) {
        const plan = r.execution_plan;
        out.push(`- execution_plan: ${plan.mode}`);
        if (plan.reason !== null) out.push(`  - reason: ${plan.reason}`);
        for (const ph of plan.phases) {
          out.push(`  - phase ${code(ph.id)}:`, `    - owner_skill: ${code(ph.owner_skill)}`);
          if (ph.route !== null) out.push(`    - route: ${code(ph.route)}`);
          if (ph.description !== null) out.push(`    - description: ${ph.description}`);
          if (ph.requires.length) out.push(`    - requires: ${ph.requires.join(', ')}`);
          if (ph.checks.length) out.push(`    - checks: ${ph.checks.join(', ')}`);
          if (ph.forbid.length) out.push(`    - forbid: ${ph.forbid.join(', ')}`);
          if (ph.handoff)
            out.push(
              `    - handoff.to_skill: ${code(ph.handoff.to_skill)}`,
              `    - handoff.boundary: ${code(ph.handoff.boundary)}`,
            );
          if (ph.jumps.length) {
            out.push('    - jumps:');
            for (const j of ph.jumps) {
              out.push(`      - when ${code(j.when)} -> phase ${code(j.to_phase)}`);
              if (j.reason !== null) out.push(`        reason: ${j.reason}`);
            }
          }
        }
      }
      out.push('');
    }
  }

  if (spec.rules.length) {
    section(
      out,
      'Rules',
      'Check the rules in this order; every matching rule applies its effects, and the last matching `prefer` chooses the route.',
    );
    for (const rule of spec.rules) {
      out.push(`### ${code(rule.id)}`);
      predicateLines(out, rule.when);
      if (rule.prefer !== null) out.push(`- prefer: ${code(rule.prefer)}`);
      if (rule.route_order.length) out.push(`- route_order: ${rule.route_order.map(code).join(' -> ')}`);
      if (rule.forbid.length) out.push(`- forbid: ${codeList(rule.forbid)}`);
      if (Object.keys(rule.allow).length) {
        out.push('- allow:');
        yamlMap(out, rule.allow, 2);
      }
      if (rule.elicit.length) out.push(`- elicit: ${codeList(rule.elicit)}`);
      if (rule.after_success.length) out.push(`- after_success: ${codeList(rule.after_success)}`);
      if (rule.reason !== null) out.push(`- reason: ${rule.reason}`);
      out.push('');
    }
  }

  if (Object.keys(spec.elicitations).length) {
    section(
      out,
      'Elicitations',
      'Ask these bounded questions, with their choices, instead of open-ended ones or a guess.',
    );
    for (const [id, e] of sortedEntries(spec.elicitations)) {
      out.push(`### ${code(id)}`, `- question: ${e.question}`);
      if (e.default !== null) out.push(`- default: ${code(e.default)}`);
      if (e.max_choices !== null) out.push(`- max_choices: ${e.max_choices}`);
      if (e.required_when.length) {
        out.push('- required_when:');
        for (const c of e.required_when) {
          if (c.route !== null) out.push(`  - route: ${code(c.route)}`);
          if (c.missing !== null) out.push(`  - missing: ${code(c.missing)}`);
          if (c.predicate) {
            out.push('  - predicate:');
            predicateLines(out, c.predicate);
          }
        }
      }
      out.push('- choices:');
      for (const c of e.choices) {
        out.push(`  - ${code(c.id)}: ${c.label}`);
        if (c.description !== null) out.push(`    description: ${c.description}`);
        if (Object.keys(c.sets).length) {
          out.push('    sets:');
          yamlMap(out, c.sets, 6);
        }
        if (c.route !== null) out.push(`    route: ${code(c.route)}`);
        if (c.next !== null) out.push(`    next: ${code(c.next)}`);
        if (c.safety !== null) out.push(`    safety: ${code(c.safety)}`);
      }
      out.push('');
    }
  }

  if (spec.trace) {
    section(out, 'Decision Trace', 'An evaluator of this spec records each decision as an append-only event log.');
    out.push('- mode: `event_log`', `- required: ${spec.trace.required}`);
    out.push(
      spec.trace.record.length ? `- record: ${codeList(spec.trace.record)}` : '- record: all v0 decision events',
    );
    out.push('');
  }

  writeDependencies(out, spec);

  if (Object.keys(spec.imports).length) {
    section(
      out,
      'Imports',
      'Import paths are relative to `skill.spec.yml`. Load `always` imports before acting; load an `on_demand` import only when something that uses it becomes active.',
    );
    for (const [id, imp] of sortedEntries(spec.imports)) {
      out.push(
        `### ${code(id)}`,
        `- path: ${code(imp.path)}`,
        `- role: ${code(imp.role)}`,
        `- load: ${code(imp.load)}`,
      );
      if (imp.section !== null) out.push(`- section: ${imp.section}`);
      if (imp.description !== null) out.push(`- description: ${imp.description}`);
      if (imp.requires.imports.length) out.push(`- requires.imports: ${codeList(imp.requires.imports)}`);
      if (imp.used_by.length) out.push('- used_by:', ...imp.used_by.map((u) => `  - ${u.kind}: ${code(u.id)}`));
      if (imp.load_when.length) out.push(`- load_when: ${codeList(imp.load_when)}`);
      out.push('');
    }
  }

  if (Object.keys(spec.resources).length) {
    section(
      out,
      'Resources',
      'Resources are source material and provenance; behaviour lives in the structured sections.',
    );
    for (const [id, r] of sortedEntries(spec.resources)) {
      out.push(`### ${code(id)}`, `- path: ${code(r.path)}`, `- role: ${code(r.role)}`);
      if (r.description !== null) out.push(`- description: ${r.description}`);
      if (r.used_by.length) out.push('- used_by:', ...r.used_by.map((u) => `  - ${u.kind}: ${code(u.id)}`));
      if (r.load_when.length) out.push(`- load_when: ${codeList(r.load_when)}`);
      out.push('');
    }
  }

  if (Object.keys(spec.code).length) {
    section(
      out,
      'Code Blocks',
      'Executable knowledge kept from the source skill; check its safety notes, dependencies, inputs and outputs before running it.',
    );
    for (const [id, c] of sortedEntries(spec.code)) {
      out.push(`### ${code(id)}`, `- language: ${code(c.language)}`, `- kind: ${code(c.kind)}`);
      if (c.purpose !== null) out.push(`- purpose: ${c.purpose}`);
      if (c.provenance) {
        const p = c.provenance;
        if (p.resource !== undefined) out.push(`- provenance resource: ${code(p.resource)}`);
        if (p.import !== undefined) out.push(`- provenance import: ${code(p.import)}`);
        if (p.fence_index !== null) out.push(`  - fence_index: ${p.fence_index}`);
        if (p.heading !== null) out.push(`  - heading: ${p.heading}`);
      }
      const rq = c.requires;
      if (rq.dependencies.length || rq.imports.length || rq.resources.length || rq.artifacts.length) {
        out.push('- requires:');
        if (rq.dependencies.length) out.push(`  - dependencies: ${codeList(rq.dependencies)}`);
        if (rq.imports.length) out.push(`  - imports: ${codeList(rq.imports)}`);
        if (rq.resources.length) out.push(`  - resources: ${codeList(rq.resources)}`);
        if (rq.artifacts.length) out.push(`  - artifacts: ${codeList(rq.artifacts)}`);
      }
      if (c.inputs.length) out.push(`- inputs: ${codeList(c.inputs)}`);
      if (c.outputs.length) out.push(`- outputs: ${codeList(c.outputs)}`);
      out.push('- source:', '');
      if ('inline' in c.source) out.push(`\`\`\`${c.language}`, c.source.inline, '```');
      else out.push(code(c.source.file), '');
      out.push('');
    }
  }

  if (Object.keys(spec.artifacts).length) {
    section(out, 'Artifacts', 'Named files and data products that commands, code and recipes produce or consume.');
    for (const [id, a] of sortedEntries(spec.artifacts)) {
      out.push(`### ${code(id)}`, `- kind: ${code(a.kind)}`);
      if (a.description !== null) out.push(`- description: ${a.description}`);
      if (a.path !== null) out.push(`- path: ${code(a.path)}`);
      out.push('');
    }
  }

  if (Object.keys(spec.recipes).length) {
    section(
      out,
      'Recipes',
      'Procedures whose steps name the imports, resources, code, commands, questions and artifacts they use.',
    );
    for (const [id, r] of sortedEntries(spec.recipes)) {
      out.push(`### ${code(id)}`);
      if (r.description !== null) out.push(`- description: ${r.description}`);
      out.push(`- ordered: ${r.ordered}`);
      if (r.steps.length) {
        out.push('- steps:');
        for (const s of r.steps) {
          if ('branch' in s) {
            out.push(`  - branch: if ${code(s.branch.if)} then ${code(s.branch.then)}`);
            if (s.branch.otherwise !== null) out.push(`    otherwise ${code(s.branch.otherwise)}`);
          } else if ('note' in s) out.push(`  - note: ${s.note}`);
          else {
            const [k, v] = Object.entries(s)[0] as [string, string];
            out.push(`  - ${k}: ${code(v)}`);
          }
        }
      }
      out.push('');
    }
  }

  if (Object.keys(spec.states).length) {
    section(out, 'State Machine', 'Lifecycle guidance: what each state does, says and asks, and where it goes next.');
    for (const [id, s] of sortedEntries(spec.states)) {
      out.push(`### ${code(id)}`);
      if (s.do.length) out.push(`- do: ${codeList(s.do)}`);
      for (const k of ['say', 'ask', 'next', 'yes', 'no'] as const)
        if (s[k] !== null) out.push(`- ${k}: ${code(s[k]!)}`);
      out.push('');
    }
  }

  if (Object.keys(spec.commands).length) {
    section(
      out,
      'Command Templates',
      "Templates describe commands; they grant no permission. Apply each safety class and the harness's approval rules before running one.",
    );
    for (const [id, c] of sortedEntries(spec.commands)) {
      out.push(`### ${code(id)}`);
      if (c.description !== null) out.push(`- description: ${c.description}`);
      if (c.safety !== null) out.push(`- safety: ${code(c.safety)}`);
      out.push('- template:', '', '```bash', c.template, '```');
      const rq = c.requires;
      if (rq.dependencies.length || rq.resources.length || rq.files.length || rq.env.length || rq.auth.length) {
        out.push('- requires:');
        if (rq.dependencies.length) out.push(`  - dependencies: ${codeList(rq.dependencies)}`);
        if (rq.files.length) out.push(`  - files: ${codeList(rq.files)}`);
        if (rq.env.length) out.push(`  - env: ${codeList(rq.env)}`);
        if (rq.auth.length) out.push(`  - auth: ${codeList(rq.auth)}`);
      }
      if (Object.keys(c.parse).length)
        out.push('- parse:', ...sortedEntries(c.parse).map(([k, v]) => `  - ${code(k)}: ${code(v)}`));
      if (Object.keys(c.success_when).length) {
        out.push('- success_when:');
        yamlMap(out, c.success_when, 2);
      }
      out.push('');
    }
  }

  if (Object.keys(spec.snippets).length) {
    section(out, 'Snippets');
    for (const [id, s] of sortedEntries(spec.snippets)) out.push(`### ${code(id)}`, s.text.trim(), '');
  }

  if (Object.keys(spec.closures).length) {
    section(out, 'Closures', 'Named follow-up obligations; run one when a state or an `after_success` list names it.');
    for (const [id, c] of sortedEntries(spec.closures)) {
      out.push(`### ${code(id)}`);
      yamlBlock(out, c);
      out.push('');
    }
  }

  if (spec.tests.length) {
    section(
      out,
      'Scenario Tests',
      'Worked examples of the decisions above; make the same choices for equivalent tasks.',
    );
    for (const t of spec.tests) {
      out.push(`### ${t.name}`, `- input: ${debugStr(t.input)}`);
      if (t.expect.route !== null) out.push(`- expect route: ${code(t.expect.route)}`);
      if (t.expect.route_order.length) out.push(`- expect route_order: ${t.expect.route_order.map(code).join(' -> ')}`);
      if (t.expect.forbid.length) out.push(`- expect forbid: ${codeList(t.expect.forbid)}`);
      if (t.expect.elicit.length) out.push(`- expect elicit: ${codeList(t.expect.elicit)}`);
      if (t.expect.after_success.length) out.push(`- expect after_success: ${codeList(t.expect.after_success)}`);
      out.push('');
    }
  }

  if (spec.proof && spec.proof.metrics.length) {
    section(out, 'Proof Metrics');
    out.push(...spec.proof.metrics.map((m) => `- ${code(m)}`), '');
  }
  if (spec.review_required.length) {
    section(out, 'Review Required');
    out.push(...spec.review_required.map((n) => `- ${n}`), '');
  }

  section(
    out,
    'SkillSpec CLI Commands',
    '`<skill-folder>` is the folder of this file; traces go under `${PWD}/.skillspec/traces` by convention.',
  );
  out.push(
    '```bash',
    'skillsmith spec validate <skill-folder>/skill.spec.yml',
    'skillsmith spec test <skill-folder>/skill.spec.yml',
    'skillsmith spec imports <skill-folder>/skill.spec.yml',
    'skillsmith spec decide <skill-folder>/skill.spec.yml --input=\'<user task>\' --trace-dir "${PWD}/.skillspec/traces"',
    'skillsmith spec explain <skill-folder>/skill.spec.yml --input=\'<user task>\' --trace-dir "${PWD}/.skillspec/traces"',
    'skillsmith spec compile <skill-folder>/skill.spec.yml --target markdown',
    '```',
  );
}

function writeDependencies(out: string[], spec: SkillSpec): void {
  if (!Object.keys(spec.dependencies).length) return;
  section(
    out,
    'Dependencies',
    'Check a dependency before running a command that needs it. When one is missing, take its declared provision or question; never install tools globally on your own.',
  );
  for (const [id, d] of sortedEntries(spec.dependencies)) {
    out.push(`### ${code(id)}`, `- kind: ${code(d.kind)}`);
    if (d.description !== null) out.push(`- description: ${d.description}`);
    if (d.command !== null) out.push(`- command: ${code(d.command)}`);
    if (d.path !== null) out.push(`- path: ${code(d.path)}`);
    if (d.env !== null) out.push(`- env: ${code(d.env)}`);
    if (d.check) {
      out.push('- check:');
      if (d.check.command !== null) out.push(`  - command: ${code(d.check.command)}`);
      if (d.check.path !== null) out.push(`  - path: ${code(d.check.path)}`);
      if (d.check.env !== null) out.push(`  - env: ${code(d.check.env)}`);
    }
    if (d.permission) {
      out.push('- permission:', `  - required: ${d.permission.required}`);
      if (d.permission.reason !== null) out.push(`  - reason: ${d.permission.reason}`);
      if (d.permission.safety !== null) out.push(`  - safety: ${code(d.permission.safety)}`);
    }
    if (d.provision) {
      out.push('- provision:');
      if (d.provision.elicit !== null) out.push(`  - elicit: ${code(d.provision.elicit)}`);
      if (d.provision.options.length) {
        out.push('  - options:');
        for (const o of d.provision.options) {
          out.push(`    - ${code(o.id)}: ${o.label}`);
          if (o.description !== null) out.push(`      description: ${o.description}`);
          if (o.command !== null) out.push(`      command: ${code(o.command)}`);
          if (o.safety !== null) out.push(`      safety: ${code(o.safety)}`);
        }
      }
    }
    out.push('');
  }
}
