/**
 * The SkillSpec v0 model as data: every typed object, its fields in declaration order,
 * which are required and what an absent field defaults to. One table drives three
 * things, so they cannot drift apart: the strict YAML reader (yaml.ts), the canonical
 * JSON serialisation the trace fingerprint hashes (canonical.ts), and the JSON Schema
 * the editor uses (json-schema.ts).
 */

export type TypeDef =
  | { readonly k: 'str' }
  | { readonly k: 'bool' }
  | { readonly k: 'int'; readonly bits: 'i64' | 'u32' }
  | { readonly k: 'enum'; readonly name: string; readonly values: readonly string[]; readonly dflt?: string }
  | { readonly k: 'list'; readonly of: TypeDef }
  | { readonly k: 'map'; readonly of: TypeDef }
  | { readonly k: 'opt'; readonly of: TypeDef }
  | { readonly k: 'struct'; readonly s: StructDef }
  | { readonly k: 'untagged'; readonly name: string; readonly variants: readonly StructDef[] }
  | { readonly k: 'any' };

export interface FieldDef {
  readonly name: string;
  readonly t: TypeDef;
  /** Required fields have no default: leaving one out is "missing field". */
  readonly required?: boolean;
  /** Left out of the canonical JSON when null (the reference skips these two). */
  readonly skipIfNull?: boolean;
  /** One line for the JSON Schema's description. */
  readonly doc?: string;
}

export interface StructDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
  readonly doc?: string;
}

export const STR: TypeDef = { k: 'str' };
export const BOOL: TypeDef = { k: 'bool' };
export const I64: TypeDef = { k: 'int', bits: 'i64' };
export const U32: TypeDef = { k: 'int', bits: 'u32' };
export const ANY: TypeDef = { k: 'any' };
const list = (of: TypeDef): TypeDef => ({ k: 'list', of });
const map = (of: TypeDef): TypeDef => ({ k: 'map', of });
const opt = (of: TypeDef): TypeDef => ({ k: 'opt', of });
const struct = (s: StructDef): TypeDef => ({ k: 'struct', s });
const en = (name: string, values: readonly string[], dflt?: string): TypeDef => ({
  k: 'enum',
  name,
  values,
  ...(dflt ? { dflt } : {}),
});
const req = (name: string, t: TypeDef, doc?: string): FieldDef => ({
  name,
  t,
  required: true,
  ...(doc ? { doc } : {}),
});
const f = (name: string, t: TypeDef, doc?: string): FieldDef => ({ name, t, ...(doc ? { doc } : {}) });

export const SAFETY_CLASSES = [
  'read_only',
  'local_read',
  'local_write',
  'network_read',
  'network_write',
  'browser_attach',
  'credential_request',
  'destructive',
] as const;
export const TRACE_EVENT_KINDS = [
  'input_received',
  'spec_loaded',
  'rule_evaluated',
  'rule_matched',
  'route_selected',
  'route_order_set',
  'forbid_added',
  'allow_added',
  'elicitation_requested',
  'after_success_scheduled',
  'outcome_recorded',
] as const;
const USE_KINDS = [
  'route',
  'rule',
  'state',
  'elicitation',
  'dependency',
  'command',
  'code',
  'artifact',
  'recipe',
  'snippet',
] as const;

const SAFETY = en('SafetyClass', SAFETY_CLASSES);
const STRS = list(STR);

export const ToolBoundary: StructDef = {
  name: 'ToolBoundary',
  doc: 'Tool permission contract, inherited entry → route → phase.',
  fields: [
    f('default', opt(en('ToolBoundaryDefault', ['allow', 'deny']))),
    f('allow', STRS),
    f('forbid', STRS),
    f('permission_required_for', STRS),
  ],
};
export const RouteHandoff: StructDef = {
  name: 'RouteHandoff',
  fields: [
    req('to_skill', STR),
    req('boundary', en('HandoffBoundary', ['stop_current_skill', 'resume_after_handoff'])),
    f('pass_context', STRS),
    f('forbid', STRS),
    f('reason', opt(STR)),
  ],
};
export const ExecutionJump: StructDef = {
  name: 'ExecutionJump',
  fields: [req('when', STR), req('to_phase', STR), f('reason', opt(STR))],
};
export const ExecutionPhase: StructDef = {
  name: 'ExecutionPhase',
  fields: [
    req('id', STR),
    req('owner_skill', STR),
    f('route', opt(STR)),
    f('description', opt(STR)),
    f('requires', STRS),
    f('checks', STRS),
    f('forbid', STRS),
    f('handoff', opt(struct(RouteHandoff))),
    f('jumps', list(struct(ExecutionJump))),
    f('tool_boundary', opt(struct(ToolBoundary))),
  ],
};
export const ExecutionPlan: StructDef = {
  name: 'ExecutionPlan',
  fields: [
    f('mode', en('ExecutionPlanMode', ['ordered'], 'ordered')),
    req('phases', list(struct(ExecutionPhase))),
    f('reason', opt(STR)),
  ],
};
export const Activation: StructDef = {
  name: 'Activation',
  doc: 'Harness-selection hints; never part of the route decision.',
  fields: [req('summary', STR), f('keywords', STRS), f('priority', opt(STR))],
};
export const Entry: StructDef = {
  name: 'Entry',
  fields: [
    req('prompt', STR),
    f('decision_required', BOOL),
    f('supersedes_skills', STRS),
    f('forbid_before_decision', STRS),
    f('tool_boundary', opt(struct(ToolBoundary))),
  ],
};
export const Route: StructDef = {
  name: 'Route',
  fields: [
    req('id', STR, 'Route identifier, unique among routes.'),
    req('label', STR),
    f('rank', opt(I64), 'Lower ranks come first in the default order; unranked routes go last.'),
    f('description', opt(STR)),
    f('checks', STRS),
    f('handoff', opt(struct(RouteHandoff))),
    f('execution_plan', opt(struct(ExecutionPlan))),
    f('tool_boundary', opt(struct(ToolBoundary))),
  ],
};
export const Predicate: StructDef = {
  name: 'Predicate',
  doc: 'All present conditions must hold; an empty predicate never matches.',
  fields: [
    f('user_says_any', STRS, 'Matches when any phrase occurs (case-insensitive, word-bounded, naive plural).'),
    f('user_says_all_groups', list(STRS), 'Every group needs one occurring phrase; an empty group fails.'),
    f('task_recurrence_likely', opt(BOOL), 'Keyword heuristic: daily, weekly, every day, again, recurring, ...'),
    f('domain_object_task', opt(BOOL), 'Keyword heuristic: ticket, issue, email, repo, pull request, ...'),
    f('interactive_prompt_likely', opt(BOOL), 'Keyword heuristic: login, auth, mfa, otp, password, prompt.'),
    f('command_likely_long_running', opt(BOOL), 'Keyword heuristic: test, build, deploy, server, watch, monitor, ...'),
  ],
};
export const Rule: StructDef = {
  name: 'Rule',
  fields: [
    req('id', STR),
    f('when', struct(Predicate), 'When the rule matches; without conditions it never does.'),
    f('prefer', opt(STR), 'Route to select (the last matching prefer wins).'),
    f('route_order', STRS, 'Replaces the route order (does not change a preferred route).'),
    f('forbid', STRS, 'Substitutions that become forbidden.'),
    f('allow', map(ANY), 'Narrow fallbacks, merged key by key over earlier rules.'),
    f('elicit', STRS, 'Elicitation ids to ask.'),
    f('after_success', STRS, 'Command, recipe, code or closure ids to run after success.'),
    f('reason', opt(STR), 'Why; the last non-null reason becomes the decision reason.'),
  ],
};
export const State: StructDef = {
  name: 'State',
  fields: [
    f('do', STRS),
    f('say', opt(STR)),
    f('ask', opt(STR)),
    f('next', opt(STR)),
    f('yes', opt(STR)),
    f('no', opt(STR)),
  ],
};
export const ElicitationCondition: StructDef = {
  name: 'ElicitationCondition',
  fields: [f('route', opt(STR)), f('missing', opt(STR)), f('predicate', opt(struct(Predicate)))],
};
export const ElicitationChoice: StructDef = {
  name: 'ElicitationChoice',
  fields: [
    req('id', STR),
    req('label', STR),
    f('description', opt(STR)),
    f('sets', map(ANY)),
    f('route', opt(STR)),
    f('next', opt(STR)),
    f('safety', opt(SAFETY)),
  ],
};
export const Elicitation: StructDef = {
  name: 'Elicitation',
  fields: [
    req('question', STR),
    f('required_when', list(struct(ElicitationCondition))),
    req('choices', list(struct(ElicitationChoice))),
    f('default', opt(STR)),
    f('max_choices', opt(U32)),
  ],
};
export const TraceConfig: StructDef = {
  name: 'TraceConfig',
  fields: [
    req('mode', en('TraceMode', ['event_log'])),
    f('required', BOOL, 'decide/explain refuse to run without --trace-dir.'),
    f('record', list(en('TraceEventKind', TRACE_EVENT_KINDS)), 'Event kinds to write; empty records all.'),
  ],
};
export const CommandRequires: StructDef = {
  name: 'CommandRequires',
  fields: [f('dependencies', STRS), f('resources', STRS), f('files', STRS), f('env', STRS), f('auth', STRS)],
};
export const CommandTemplate: StructDef = {
  name: 'CommandTemplate',
  fields: [
    f('description', opt(STR)),
    req('template', STR),
    f('safety', opt(SAFETY)),
    f('requires', struct(CommandRequires)),
    f('parse', map(STR)),
    f('success_when', map(ANY)),
  ],
};
export const DependencyCheck: StructDef = {
  name: 'DependencyCheck',
  fields: [f('command', opt(STR)), f('path', opt(STR)), f('env', opt(STR))],
};
export const DependencyPermission: StructDef = {
  name: 'DependencyPermission',
  fields: [f('required', BOOL), f('reason', opt(STR)), f('safety', opt(SAFETY))],
};
export const DependencyProvisionOption: StructDef = {
  name: 'DependencyProvisionOption',
  fields: [
    req('id', STR),
    req('label', STR),
    f('description', opt(STR)),
    f('command', opt(STR)),
    f('safety', opt(SAFETY)),
  ],
};
export const DependencyProvision: StructDef = {
  name: 'DependencyProvision',
  fields: [f('elicit', opt(STR)), f('options', list(struct(DependencyProvisionOption)))],
};
export const Dependency: StructDef = {
  name: 'Dependency',
  fields: [
    req('kind', en('DependencyKind', ['cli', 'package', 'file', 'env', 'service', 'adapter', 'browser'])),
    f('description', opt(STR)),
    f('command', opt(STR)),
    f('path', opt(STR)),
    f('env', opt(STR)),
    f('check', opt(struct(DependencyCheck))),
    f('permission', opt(struct(DependencyPermission))),
    f('provision', opt(struct(DependencyProvision))),
  ],
};
export const ImportRequires: StructDef = { name: 'ImportRequires', fields: [f('imports', STRS)] };
export const ImportUse: StructDef = {
  name: 'ImportUse',
  fields: [req('kind', en('ImportUseKind', USE_KINDS)), req('id', STR)],
};
export const Import: StructDef = {
  name: 'Import',
  fields: [
    req('path', STR),
    req('role', en('ImportRole', ['policy', 'reference', 'procedure', 'example', 'skill'])),
    f('description', opt(STR)),
    f('section', opt(STR)),
    f(
      'load',
      en('ImportLoad', ['always', 'on_demand'], 'on_demand'),
      'An on_demand import must be referenced or have used_by.',
    ),
    f('requires', struct(ImportRequires)),
    f('used_by', list(struct(ImportUse))),
    f('load_when', STRS),
  ],
};
export const ResourceUse: StructDef = {
  name: 'ResourceUse',
  fields: [req('kind', en('ResourceUseKind', USE_KINDS)), req('id', STR)],
};
export const Resource: StructDef = {
  name: 'Resource',
  fields: [
    req('path', STR),
    req(
      'role',
      en('ResourceRole', ['source_material', 'reference', 'required_procedure', 'example', 'script', 'asset']),
    ),
    f('description', opt(STR)),
    f('used_by', list(struct(ResourceUse))),
    f('load_when', STRS),
  ],
};
export const CodeInlineSource: StructDef = { name: 'CodeInlineSource', fields: [req('inline', STR)] };
export const CodeFileSource: StructDef = {
  name: 'CodeFileSource',
  fields: [
    req('file', STR),
    f('from_resource', opt(STR)),
    f('fence_index', opt(U32)),
    f('heading', opt(STR)),
    f('sha256', opt(STR)),
  ],
};
export const CodeProvenance: StructDef = {
  name: 'CodeProvenance',
  fields: [
    { name: 'resource', t: opt(STR), skipIfNull: true },
    { name: 'import', t: opt(STR), skipIfNull: true },
    f('fence_index', opt(U32)),
    f('heading', opt(STR)),
    f('line_start', opt(U32)),
    f('line_end', opt(U32)),
  ],
};
export const CodeRequires: StructDef = {
  name: 'CodeRequires',
  fields: [f('dependencies', STRS), f('imports', STRS), f('resources', STRS), f('artifacts', STRS)],
};
export const CodeSafety: StructDef = {
  name: 'CodeSafety',
  fields: [f('mutates_input', BOOL), f('writes_files', BOOL), f('network', BOOL), f('notes', STRS)],
};
export const CodeBlock: StructDef = {
  name: 'CodeBlock',
  fields: [
    req('language', STR),
    req(
      'kind',
      en('CodeKind', ['example', 'runnable_script', 'probe', 'transform', 'validator', 'troubleshooting', 'reference']),
    ),
    req('source', { k: 'untagged', name: 'CodeSource', variants: [CodeInlineSource, CodeFileSource] }),
    f('provenance', opt(struct(CodeProvenance))),
    f('purpose', opt(STR)),
    f('requires', struct(CodeRequires)),
    f('inputs', STRS),
    f('outputs', STRS),
    f('safety', struct(CodeSafety)),
    f('use_when', STRS),
  ],
};
const EXEC_KIND = en('ExecutableRefKind', ['command', 'code', 'recipe']);
export const ProducerRef: StructDef = { name: 'ProducerRef', fields: [req('kind', EXEC_KIND), req('id', STR)] };
export const ConsumerRef: StructDef = { name: 'ConsumerRef', fields: [req('kind', EXEC_KIND), req('id', STR)] };
export const Artifact: StructDef = {
  name: 'Artifact',
  fields: [
    req('kind', en('ArtifactKind', ['file', 'directory', 'json', 'text', 'image', 'pdf', 'transcript', 'report'])),
    f('description', opt(STR)),
    f('path', opt(STR)),
    f('schema', opt(ANY)),
    f('produced_by', list(struct(ProducerRef))),
    f('consumed_by', list(struct(ConsumerRef))),
  ],
};
export const RecipeRequires: StructDef = {
  name: 'RecipeRequires',
  fields: [f('imports', STRS), f('resources', STRS), f('dependencies', STRS), f('artifacts', STRS)],
};
export const RecipeBranch: StructDef = {
  name: 'RecipeBranch',
  fields: [req('if', STR), req('then', STR), f('otherwise', opt(STR))],
};
const step = (name: string, key: string, t: TypeDef = STR): StructDef => ({ name, fields: [req(key, t)] });
export const RECIPE_STEP_VARIANTS: readonly StructDef[] = [
  step('RecipeStepLoadImport', 'load_import'),
  step('RecipeStepLoadResource', 'load_resource'),
  step('RecipeStepRunCommand', 'run_command'),
  step('RecipeStepRunCode', 'run_code'),
  step('RecipeStepProduceArtifact', 'produce_artifact'),
  step('RecipeStepConsumeArtifact', 'consume_artifact'),
  step('RecipeStepAsk', 'ask'),
  step('RecipeStepBranch', 'branch', struct(RecipeBranch)),
  step('RecipeStepNote', 'note'),
];
export const Recipe: StructDef = {
  name: 'Recipe',
  fields: [
    f('description', opt(STR)),
    f('ordered', BOOL),
    f('requires', struct(RecipeRequires)),
    f('steps', list({ k: 'untagged', name: 'RecipeStep', variants: RECIPE_STEP_VARIANTS })),
  ],
};
export const Snippet: StructDef = { name: 'Snippet', fields: [req('text', STR)] };
export const Proof: StructDef = { name: 'Proof', fields: [f('metrics', STRS)] };
export const Expectation: StructDef = {
  name: 'Expectation',
  doc: 'At least one assertion. Plain lists assert inclusion, *_exact set equality ([] = empty), not_* absence; route and route_order/plan_phases compare exactly.',
  fields: [
    f('route', opt(STR)),
    f('route_order', STRS),
    f('plan_phases', STRS),
    f('plan_jumps', STRS),
    f('forbid', STRS),
    f('forbid_exact', opt(STRS)),
    f('not_forbid', STRS),
    f('elicit', STRS),
    f('elicit_exact', opt(STRS)),
    f('not_elicit', STRS),
    f('after_success', STRS),
    f('after_success_exact', opt(STRS)),
    f('not_after_success', STRS),
    f('matched_rules', STRS),
    f('matched_rules_exact', opt(STRS)),
    f('not_matched_rules', STRS),
  ],
};
export const ScenarioTest: StructDef = {
  name: 'ScenarioTest',
  fields: [req('name', STR), req('input', STR), req('expect', struct(Expectation))],
};

export const SkillSpecDef: StructDef = {
  name: 'SkillSpec',
  doc: 'A SkillSpec v0 contract (skill.spec.yml).',
  fields: [
    req('schema', STR, 'Always skillspec/v0.'),
    req('id', STR),
    req('title', STR),
    req('description', STR),
    f('activation', opt(struct(Activation)), 'Hints a harness uses to decide whether to load the skill.'),
    f('applies_when', list(ANY), 'Selection hints (any values); `user_intent` strings feed the compiled description.'),
    f('entry', opt(struct(Entry)), 'How the skill is entered, and what must wait for a decision.'),
    f('routes', list(struct(Route)), 'Candidate ways to do the work, in file order.'),
    f('rules', list(struct(Rule)), 'Steering rules, evaluated in file order.'),
    f('states', map(struct(State)), 'Lifecycle states by id (descriptive; never executed).'),
    f('elicitations', map(struct(Elicitation)), 'Bounded questions by id.'),
    f('trace', opt(struct(TraceConfig)), 'Which decision events an evaluator records.'),
    f('dependencies', map(struct(Dependency)), 'Tools, files, variables and services the skill needs, by id.'),
    f('imports', map(struct(Import)), 'Guidance files loaded at run time, by id.'),
    f('resources', map(struct(Resource)), 'Source material and scripts kept with the skill, by id.'),
    f('code', map(struct(CodeBlock)), 'Executable knowledge, inline or in a file, by id.'),
    f('artifacts', map(struct(Artifact)), 'Named data products, by id.'),
    f('recipes', map(struct(Recipe)), 'Structured procedures, by id.'),
    f('commands', map(struct(CommandTemplate)), 'Command templates, by id (never run by the engine).'),
    f('snippets', map(struct(Snippet)), 'User-facing text, by key.'),
    f('closures', map(ANY), 'Named post-task actions (any values), by key.'),
    f('proof', opt(struct(Proof)), 'The measures the skill is meant to improve.'),
    f('tests', list(struct(ScenarioTest)), 'Scenario tests: an input and the decision it must produce.'),
    f('review_required', STRS, 'Items a human must review.'),
    f('metadata', map(ANY), 'Free-form metadata.'),
  ],
};
