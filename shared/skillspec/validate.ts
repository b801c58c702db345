/**
 * Structural and cross-reference checks, in the reference's order; the first failure is
 * thrown. Map sections are visited in sorted key order, lists in file order. Filesystem
 * checks (import files, sidecars) are in files.ts, behind a host interface.
 */
import { duplicateId, invalidIdentifier, missingField, unknownReference, unsupportedSchema } from './errors';
import { has, sortedEntries, type ExecutableRef, type SkillSpec, type UseRef } from './model';

const IDENT = /^[a-z][a-z0-9_.-]*$/;

export function isIdentifier(s: string): boolean {
  return IDENT.test(s);
}

function ident(field: string, value: string): void {
  if (!IDENT.test(value)) throw invalidIdentifier(field, value);
}

function unique(field: string, seen: Set<string>, value: string): void {
  if (seen.has(value)) throw duplicateId(field, value);
  seen.add(value);
}

function known(field: string, ids: ReadonlySet<string> | object, value: string): void {
  const ok = ids instanceof Set ? ids.has(value) : has(ids, value);
  if (!ok) throw unknownReference(field, value);
}

/** Rust's str::trim: Unicode White_Space on both ends (JS trim also drops U+FEFF). */
export function isBlank(s: string): boolean {
  return s.trim() === '';
}

/** Keys of commands, recipes, code and closures: what after_success and states.do may name. */
export function actionIds(spec: SkillSpec): Set<string> {
  return new Set([
    ...Object.keys(spec.commands),
    ...Object.keys(spec.recipes),
    ...Object.keys(spec.code),
    ...Object.keys(spec.closures),
  ]);
}

export function validateSpec(spec: SkillSpec): void {
  if (spec.schema !== 'skillspec/v0') throw unsupportedSchema(spec.schema);
  if (isBlank(spec.id)) throw missingField('id');
  if (isBlank(spec.title)) throw missingField('title');
  if (isBlank(spec.description)) throw missingField('description');
  ident('id', spec.id);

  const routeIds = new Set(spec.routes.map((r) => r.id));
  const ruleIds = new Set(spec.rules.map((r) => r.id));
  const actions = actionIds(spec);

  // Routes.
  const seenRoutes = new Set<string>();
  for (const r of spec.routes) {
    ident('routes.id', r.id);
    unique('routes.id', seenRoutes, r.id);
  }

  // Elicitations.
  for (const [id, e] of sortedEntries(spec.elicitations)) {
    ident('elicitations key', id);
    if (isBlank(e.question)) throw missingField('elicitations.question');
    if (e.choices.length === 0) throw missingField('elicitations.choices');
    const choiceIds = new Set<string>();
    for (const c of e.choices) {
      ident('elicitations.choices.id', c.id);
      unique('elicitations.choices.id', choiceIds, c.id);
      if (isBlank(c.label)) throw missingField('elicitations.choices.label');
      if (c.route !== null) known('elicitations.choices.route', routeIds, c.route);
      if (c.next !== null) known('elicitations.choices.next', spec.states, c.next);
    }
    if (e.default !== null && !choiceIds.has(e.default)) throw unknownReference('elicitations.default', e.default);
    for (const cond of e.required_when) {
      if (cond.route !== null) known('elicitations.required_when.route', routeIds, cond.route);
      if (cond.missing !== null) ident('elicitations.required_when.missing', cond.missing);
    }
  }

  // Trace: the duplicate shows the Rust variant name, as the reference prints it.
  if (spec.trace) {
    const seen = new Set<string>();
    for (const kind of spec.trace.record) unique('trace.record', seen, variantName(kind));
  }

  // Dependencies.
  for (const [id, d] of sortedEntries(spec.dependencies)) {
    ident('dependencies key', id);
    if (d.command === '') throw missingField('dependencies.command');
    if (d.path === '') throw missingField('dependencies.path');
    if (d.env === '') throw missingField('dependencies.env');
    if (d.check) {
      if (d.check.command === '') throw missingField('dependencies.check.command');
      if (d.check.path === '') throw missingField('dependencies.check.path');
      if (d.check.env === '') throw missingField('dependencies.check.env');
    }
    if (d.provision) {
      if (d.provision.elicit !== null) known('dependencies.provision.elicit', spec.elicitations, d.provision.elicit);
      const optionIds = new Set<string>();
      for (const o of d.provision.options) {
        ident('dependencies.provision.options.id', o.id);
        unique('dependencies.provision.options.id', optionIds, o.id);
        if (isBlank(o.label)) throw missingField('dependencies.provision.options.label');
      }
    }
  }

  // Imports, then the cycle walk.
  const importRefs = importReferences(spec);
  for (const [id, imp] of sortedEntries(spec.imports)) {
    ident('imports key', id);
    if (isBlank(imp.path)) throw missingField('imports.path');
    if (imp.section === '') throw missingField('imports.section');
    for (const r of imp.requires.imports) known('imports.requires.imports', spec.imports, r);
    for (const u of imp.used_by) checkUse(spec, 'imports.used_by', u);
    if (!importRefs.has(id) && imp.used_by.length === 0 && imp.load !== 'always')
      throw unknownReference('imports.orphan', id);
  }
  checkImportCycles(spec);

  // Resources.
  const resourceRefs = resourceReferences(spec);
  for (const [id, res] of sortedEntries(spec.resources)) {
    ident('resources key', id);
    if (isBlank(res.path)) throw missingField('resources.path');
    for (const u of res.used_by) checkUse(spec, 'resources.used_by', u);
    if (!resourceRefs.has(id) && res.used_by.length === 0) throw unknownReference('resources.orphan', id);
  }

  // Code.
  for (const [id, code] of sortedEntries(spec.code)) {
    ident('code key', id);
    if (isBlank(code.language)) throw missingField('code.language');
    if ('inline' in code.source) {
      if (isBlank(code.source.inline)) throw missingField('code.source.inline');
    } else {
      if (isBlank(code.source.file)) throw missingField('code.source.file');
      if (code.source.from_resource !== null)
        known('code.source.from_resource', spec.resources, code.source.from_resource);
    }
    const p = code.provenance;
    if (p) {
      if (p.resource !== undefined && p.import === undefined)
        known('code.provenance.resource', spec.resources, p.resource);
      else if (p.resource === undefined && p.import !== undefined)
        known('code.provenance.import', spec.imports, p.import);
      else if (p.resource === undefined) throw missingField('code.provenance.resource_or_import');
      else throw unknownReference('code.provenance.resource_or_import', 'resource and import both set');
    }
    for (const x of code.requires.dependencies) known('code.requires.dependencies', spec.dependencies, x);
    for (const x of code.requires.imports) known('code.requires.imports', spec.imports, x);
    for (const x of code.requires.resources) known('code.requires.resources', spec.resources, x);
    for (const x of code.requires.artifacts) known('code.requires.artifacts', spec.artifacts, x);
    for (const x of [...code.inputs, ...code.outputs]) known('code.inputs.outputs', spec.artifacts, x);
  }

  // Artifacts.
  for (const [id, a] of sortedEntries(spec.artifacts)) {
    ident('artifacts key', id);
    if (a.path === '') throw missingField('artifacts.path');
    for (const r of a.produced_by) checkExecutable(spec, 'artifacts.produced_by', r);
    for (const r of a.consumed_by) checkExecutable(spec, 'artifacts.consumed_by', r);
  }

  // Recipes.
  for (const [id, recipe] of sortedEntries(spec.recipes)) {
    ident('recipes key', id);
    for (const x of recipe.requires.resources) known('recipes.requires.resources', spec.resources, x);
    for (const x of recipe.requires.imports) known('recipes.requires.imports', spec.imports, x);
    for (const x of recipe.requires.dependencies) known('recipes.requires.dependencies', spec.dependencies, x);
    for (const x of recipe.requires.artifacts) known('recipes.requires.artifacts', spec.artifacts, x);
    for (const step of recipe.steps) {
      if ('load_import' in step) known('recipes.steps.load_import', spec.imports, step.load_import);
      else if ('load_resource' in step) known('recipes.steps.load_resource', spec.resources, step.load_resource);
      else if ('run_command' in step) known('recipes.steps.run_command', spec.commands, step.run_command);
      else if ('run_code' in step) known('recipes.steps.run_code', spec.code, step.run_code);
      else if ('produce_artifact' in step)
        known('recipes.steps.produce_artifact', spec.artifacts, step.produce_artifact);
      else if ('consume_artifact' in step)
        known('recipes.steps.consume_artifact', spec.artifacts, step.consume_artifact);
      else if ('ask' in step) known('recipes.steps.ask', spec.elicitations, step.ask);
      else if ('branch' in step) {
        if (isBlank(step.branch.if)) throw missingField('recipes.steps.branch.if');
        branchTarget(spec, 'recipes.steps.branch.then', step.branch.then);
        if (step.branch.otherwise !== null) branchTarget(spec, 'recipes.steps.branch.otherwise', step.branch.otherwise);
      } else if (isBlank(step.note)) throw missingField('recipes.steps.note');
    }
  }

  // Rules.
  const seenRules = new Set<string>();
  for (const rule of spec.rules) {
    ident('rules.id', rule.id);
    unique('rules.id', seenRules, rule.id);
    if (rule.prefer !== null) known('rules.prefer', routeIds, rule.prefer);
    for (const r of rule.route_order) known('rules.route_order', routeIds, r);
    for (const e of rule.elicit) known('rules.elicit', spec.elicitations, e);
    for (const a of rule.after_success) known('rules.after_success', actions, a);
  }

  // States.
  for (const [id, st] of sortedEntries(spec.states)) {
    ident('states key', id);
    for (const a of st.do) known('states.do', actions, a);
    if (st.next !== null) known('states.next', spec.states, st.next);
    if (st.yes !== null) known('states.yes', spec.states, st.yes);
    if (st.no !== null) known('states.no', spec.states, st.no);
    if (st.say !== null) known('states.say', spec.snippets, st.say);
    if (st.ask !== null) known('states.ask', spec.elicitations, st.ask);
  }

  // Commands.
  for (const [id, cmd] of sortedEntries(spec.commands)) {
    ident('commands key', id);
    for (const d of cmd.requires.dependencies) known('commands.requires.dependencies', spec.dependencies, d);
    for (const r of cmd.requires.resources) known('commands.requires.resources', spec.resources, r);
  }

  // Tests.
  for (const t of spec.tests) {
    const x = t.expect;
    if (!hasAssertions(x)) throw missingField('tests.expect assertion');
    if (x.route !== null) known('tests.expect.route', routeIds, x.route);
    for (const r of x.route_order) known('tests.expect.route_order', routeIds, r);
    for (const a of x.after_success) known('tests.expect.after_success', actions, a);
    for (const a of x.after_success_exact ?? []) known('tests.expect.after_success_exact', actions, a);
    for (const a of x.not_after_success) known('tests.expect.not_after_success', actions, a);
    for (const e of x.elicit) known('tests.expect.elicit', spec.elicitations, e);
    for (const e of x.elicit_exact ?? []) known('tests.expect.elicit_exact', spec.elicitations, e);
    for (const e of x.not_elicit) known('tests.expect.not_elicit', spec.elicitations, e);
    for (const r of x.matched_rules) known('tests.expect.matched_rules', ruleIds, r);
    for (const r of x.matched_rules_exact ?? []) known('tests.expect.matched_rules_exact', ruleIds, r);
    for (const r of x.not_matched_rules) known('tests.expect.not_matched_rules', ruleIds, r);
  }
}

export function hasAssertions(x: SkillSpec['tests'][number]['expect']): boolean {
  return (
    x.route !== null ||
    x.route_order.length > 0 ||
    x.plan_phases.length > 0 ||
    x.plan_jumps.length > 0 ||
    x.forbid.length > 0 ||
    x.forbid_exact !== null ||
    x.not_forbid.length > 0 ||
    x.elicit.length > 0 ||
    x.elicit_exact !== null ||
    x.not_elicit.length > 0 ||
    x.after_success.length > 0 ||
    x.after_success_exact !== null ||
    x.not_after_success.length > 0 ||
    x.matched_rules.length > 0 ||
    x.matched_rules_exact !== null ||
    x.not_matched_rules.length > 0
  );
}

function variantName(kind: string): string {
  return kind.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
}

function checkUse(spec: SkillSpec, field: string, u: UseRef): void {
  switch (u.kind) {
    case 'route':
      return known(field, new Set(spec.routes.map((r) => r.id)), u.id);
    case 'rule':
      return known(field, new Set(spec.rules.map((r) => r.id)), u.id);
    case 'state':
      return known(field, spec.states, u.id);
    case 'elicitation':
      return known(field, spec.elicitations, u.id);
    case 'dependency':
      return known(field, spec.dependencies, u.id);
    case 'command':
      return known(field, spec.commands, u.id);
    case 'code':
      return known(field, spec.code, u.id);
    case 'artifact':
      return known(field, spec.artifacts, u.id);
    case 'recipe':
      return known(field, spec.recipes, u.id);
    case 'snippet':
      return known(field, spec.snippets, u.id);
  }
}

function checkExecutable(spec: SkillSpec, field: string, r: ExecutableRef): void {
  known(field, r.kind === 'command' ? spec.commands : r.kind === 'code' ? spec.code : spec.recipes, r.id);
}

function branchTarget(spec: SkillSpec, field: string, target: string): void {
  if (!has(spec.commands, target) && !has(spec.code, target) && !has(spec.recipes, target))
    throw unknownReference(field, target);
}

function importReferences(spec: SkillSpec): Set<string> {
  const refs = new Set<string>();
  for (const imp of Object.values(spec.imports)) for (const r of imp.requires.imports) refs.add(r);
  for (const c of Object.values(spec.code)) for (const r of c.requires.imports) refs.add(r);
  for (const recipe of Object.values(spec.recipes)) {
    for (const r of recipe.requires.imports) refs.add(r);
    for (const step of recipe.steps) if ('load_import' in step) refs.add(step.load_import);
  }
  return refs;
}

function resourceReferences(spec: SkillSpec): Set<string> {
  const refs = new Set<string>();
  for (const c of Object.values(spec.code)) {
    if ('file' in c.source && c.source.from_resource !== null) refs.add(c.source.from_resource);
    for (const r of c.requires.resources) refs.add(r);
  }
  for (const recipe of Object.values(spec.recipes)) {
    for (const r of recipe.requires.resources) refs.add(r);
    for (const step of recipe.steps) if ('load_resource' in step) refs.add(step.load_resource);
  }
  for (const cmd of Object.values(spec.commands)) for (const r of cmd.requires.resources) refs.add(r);
  return refs;
}

/** Depth-first over requires.imports from each import in sorted order; an id still on the stack is a cycle. */
function checkImportCycles(spec: SkillSpec): void {
  const visiting = new Set<string>();
  const visited = new Set<string>();
  const visit = (id: string): void => {
    if (visited.has(id)) return;
    if (visiting.has(id)) throw unknownReference('imports.requires.imports.cycle', id);
    visiting.add(id);
    const imp = has(spec.imports, id) ? spec.imports[id] : undefined;
    if (imp) for (const c of imp.requires.imports) visit(c);
    visiting.delete(id);
    visited.add(id);
  };
  for (const [id] of sortedEntries(spec.imports)) visit(id);
}

/** Required imports first: depth-first post-order, roots in sorted order, each id once. */
export function importLoadOrder(spec: SkillSpec): string[] {
  const visiting = new Set<string>();
  const visited = new Set<string>();
  const order: string[] = [];
  const visit = (id: string): void => {
    if (visited.has(id) || visiting.has(id)) return;
    visiting.add(id);
    const imp = has(spec.imports, id) ? spec.imports[id] : undefined;
    if (imp) for (const c of imp.requires.imports) visit(c);
    visiting.delete(id);
    visited.add(id);
    order.push(id);
  };
  for (const [id] of sortedEntries(spec.imports)) visit(id);
  return order;
}
