/**
 * The typed SkillSpec v0 model the reader produces. Every field is present: absent
 * options are null, absent lists [] and absent maps {} (null-prototype objects, so any
 * key is an own property). Map sections are iterated in sorted key order (sortedKeys),
 * never insertion order. descriptor.ts is the same model as data.
 */

/** Any YAML value on an open surface (allow, sets, metadata, closures, schema, ...). */
export type YamlValue = null | boolean | number | string | YamlValue[] | { [key: string]: YamlValue };
export type IdMap<T> = Record<string, T>;

export type SafetyClass =
  | 'read_only'
  | 'local_read'
  | 'local_write'
  | 'network_read'
  | 'network_write'
  | 'browser_attach'
  | 'credential_request'
  | 'destructive';
export type TraceEventKind =
  | 'input_received'
  | 'spec_loaded'
  | 'rule_evaluated'
  | 'rule_matched'
  | 'route_selected'
  | 'route_order_set'
  | 'forbid_added'
  | 'allow_added'
  | 'elicitation_requested'
  | 'after_success_scheduled'
  | 'outcome_recorded';
export type UseKind =
  'route' | 'rule' | 'state' | 'elicitation' | 'dependency' | 'command' | 'code' | 'artifact' | 'recipe' | 'snippet';

export interface ToolBoundary {
  default: 'allow' | 'deny' | null;
  allow: string[];
  forbid: string[];
  permission_required_for: string[];
}
export interface RouteHandoff {
  to_skill: string;
  boundary: 'stop_current_skill' | 'resume_after_handoff';
  pass_context: string[];
  forbid: string[];
  reason: string | null;
}
export interface ExecutionJump {
  when: string;
  to_phase: string;
  reason: string | null;
}
export interface ExecutionPhase {
  id: string;
  owner_skill: string;
  route: string | null;
  description: string | null;
  requires: string[];
  checks: string[];
  forbid: string[];
  handoff: RouteHandoff | null;
  jumps: ExecutionJump[];
  tool_boundary: ToolBoundary | null;
}
export interface ExecutionPlan {
  mode: 'ordered';
  phases: ExecutionPhase[];
  reason: string | null;
}
export interface Activation {
  summary: string;
  keywords: string[];
  priority: string | null;
}
export interface Entry {
  prompt: string;
  decision_required: boolean;
  supersedes_skills: string[];
  forbid_before_decision: string[];
  tool_boundary: ToolBoundary | null;
}
export interface Route {
  id: string;
  label: string;
  rank: number | null;
  description: string | null;
  checks: string[];
  handoff: RouteHandoff | null;
  execution_plan: ExecutionPlan | null;
  tool_boundary: ToolBoundary | null;
}
export interface Predicate {
  user_says_any: string[];
  user_says_all_groups: string[][];
  task_recurrence_likely: boolean | null;
  domain_object_task: boolean | null;
  interactive_prompt_likely: boolean | null;
  command_likely_long_running: boolean | null;
}
export interface Rule {
  id: string;
  when: Predicate;
  prefer: string | null;
  route_order: string[];
  forbid: string[];
  allow: IdMap<YamlValue>;
  elicit: string[];
  after_success: string[];
  reason: string | null;
}
export interface State {
  do: string[];
  say: string | null;
  ask: string | null;
  next: string | null;
  yes: string | null;
  no: string | null;
}
export interface ElicitationCondition {
  route: string | null;
  missing: string | null;
  predicate: Predicate | null;
}
export interface ElicitationChoice {
  id: string;
  label: string;
  description: string | null;
  sets: IdMap<YamlValue>;
  route: string | null;
  next: string | null;
  safety: SafetyClass | null;
}
export interface Elicitation {
  question: string;
  required_when: ElicitationCondition[];
  choices: ElicitationChoice[];
  default: string | null;
  max_choices: number | null;
}
export interface TraceConfig {
  mode: 'event_log';
  required: boolean;
  record: TraceEventKind[];
}
export interface CommandRequires {
  dependencies: string[];
  resources: string[];
  files: string[];
  env: string[];
  auth: string[];
}
export interface CommandTemplate {
  description: string | null;
  template: string;
  safety: SafetyClass | null;
  requires: CommandRequires;
  parse: IdMap<string>;
  success_when: IdMap<YamlValue>;
}
export type DependencyKind = 'cli' | 'package' | 'file' | 'env' | 'service' | 'adapter' | 'browser';
export interface DependencyCheck {
  command: string | null;
  path: string | null;
  env: string | null;
}
export interface DependencyPermission {
  required: boolean;
  reason: string | null;
  safety: SafetyClass | null;
}
export interface DependencyProvisionOption {
  id: string;
  label: string;
  description: string | null;
  command: string | null;
  safety: SafetyClass | null;
}
export interface DependencyProvision {
  elicit: string | null;
  options: DependencyProvisionOption[];
}
export interface Dependency {
  kind: DependencyKind;
  description: string | null;
  command: string | null;
  path: string | null;
  env: string | null;
  check: DependencyCheck | null;
  permission: DependencyPermission | null;
  provision: DependencyProvision | null;
}
export interface UseRef {
  kind: UseKind;
  id: string;
}
export interface Import {
  path: string;
  role: 'policy' | 'reference' | 'procedure' | 'example' | 'skill';
  description: string | null;
  section: string | null;
  load: 'always' | 'on_demand';
  requires: { imports: string[] };
  used_by: UseRef[];
  load_when: string[];
}
export interface Resource {
  path: string;
  role: 'source_material' | 'reference' | 'required_procedure' | 'example' | 'script' | 'asset';
  description: string | null;
  used_by: UseRef[];
  load_when: string[];
}
export interface CodeInlineSource {
  inline: string;
}
export interface CodeFileSource {
  file: string;
  from_resource: string | null;
  fence_index: number | null;
  heading: string | null;
  sha256: string | null;
}
export type CodeSource = CodeInlineSource | CodeFileSource;
export interface CodeProvenance {
  /** Absent (not null) when not set, as in the reference's serialisation. */
  resource?: string;
  import?: string;
  fence_index: number | null;
  heading: string | null;
  line_start: number | null;
  line_end: number | null;
}
export interface CodeBlock {
  language: string;
  kind: 'example' | 'runnable_script' | 'probe' | 'transform' | 'validator' | 'troubleshooting' | 'reference';
  source: CodeSource;
  provenance: CodeProvenance | null;
  purpose: string | null;
  requires: { dependencies: string[]; imports: string[]; resources: string[]; artifacts: string[] };
  inputs: string[];
  outputs: string[];
  safety: { mutates_input: boolean; writes_files: boolean; network: boolean; notes: string[] };
  use_when: string[];
}
export interface ExecutableRef {
  kind: 'command' | 'code' | 'recipe';
  id: string;
}
export interface Artifact {
  kind: 'file' | 'directory' | 'json' | 'text' | 'image' | 'pdf' | 'transcript' | 'report';
  description: string | null;
  path: string | null;
  schema: YamlValue;
  produced_by: ExecutableRef[];
  consumed_by: ExecutableRef[];
}
export interface RecipeBranch {
  if: string;
  then: string;
  otherwise: string | null;
}
export type RecipeStep =
  | { load_import: string }
  | { load_resource: string }
  | { run_command: string }
  | { run_code: string }
  | { produce_artifact: string }
  | { consume_artifact: string }
  | { ask: string }
  | { branch: RecipeBranch }
  | { note: string };
export interface Recipe {
  description: string | null;
  ordered: boolean;
  requires: { imports: string[]; resources: string[]; dependencies: string[]; artifacts: string[] };
  steps: RecipeStep[];
}
export interface Snippet {
  text: string;
}
export interface Expectation {
  route: string | null;
  route_order: string[];
  plan_phases: string[];
  plan_jumps: string[];
  forbid: string[];
  forbid_exact: string[] | null;
  not_forbid: string[];
  elicit: string[];
  elicit_exact: string[] | null;
  not_elicit: string[];
  after_success: string[];
  after_success_exact: string[] | null;
  not_after_success: string[];
  matched_rules: string[];
  matched_rules_exact: string[] | null;
  not_matched_rules: string[];
}
export interface ScenarioTest {
  name: string;
  input: string;
  expect: Expectation;
}

export interface SkillSpec {
  schema: string;
  id: string;
  title: string;
  description: string;
  activation: Activation | null;
  applies_when: YamlValue[];
  entry: Entry | null;
  routes: Route[];
  rules: Rule[];
  states: IdMap<State>;
  elicitations: IdMap<Elicitation>;
  trace: TraceConfig | null;
  dependencies: IdMap<Dependency>;
  imports: IdMap<Import>;
  resources: IdMap<Resource>;
  code: IdMap<CodeBlock>;
  artifacts: IdMap<Artifact>;
  recipes: IdMap<Recipe>;
  commands: IdMap<CommandTemplate>;
  snippets: IdMap<Snippet>;
  closures: IdMap<YamlValue>;
  proof: { metrics: string[] } | null;
  tests: ScenarioTest[];
  review_required: string[];
  metadata: IdMap<YamlValue>;
}

/** Code-point (= UTF-8 byte) order, the order the reference's sorted maps use. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

export function sortedKeys(m: object): string[] {
  return Object.keys(m).sort(compareKeys);
}

export function sortedEntries<T>(m: IdMap<T>): Array<[string, T]> {
  return sortedKeys(m).map((k) => [k, m[k]!]);
}

export function has(m: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, key);
}
