import { hasJsonComment } from '../text/format';
import type { GuardDecision } from '../sandbox/guard';
import { emitSkillDir, header } from './common';
import type { GuardQuestion, ScriptGuard, TargetDef } from './types';

/** Marks Skillsmith's hook among the user's: the part of its command no hand-written hook has. */
const GUARD_MARK = '"$s" agent-hook claude-code';

/**
 * The hook command (run by `sh -c`): the installed Skillsmith decides; when it is missing or
 * fails, a command naming a guarded skill's folder is refused (exit 2 blocks the tool call and
 * its message reaches the model) and any other runs as before. A missing program alone would
 * not do: Claude Code runs the tool anyway after any exit but 2.
 */
function guardCommand(guarded: readonly string[]): string {
  // Any case of each letter: on a disk that ignores case `.CLAUDE/SKILLS/x` is the same folder.
  const anyCase = (s: string) => s.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
  const names = guarded.map((n) => `*${anyCase(`skills/${n}`)}*`).join('|');
  const why =
    'Skillsmith: not run. This project runs the scripts of its skills only through Skillsmith (skillsmith run), which is not installed here or failed. Install Skillsmith, then try again.';
  return [
    `i=$(cat); s=$(command -v skillsmith || echo "$CLAUDE_PROJECT_DIR/node_modules/.bin/skillsmith")`,
    `printf '%s' "$i" | "$s" agent-hook claude-code 2>/dev/null && exit 0`,
    `case "$i" in ${names}) echo '${why}' >&2; exit 2;; esac`,
  ].join('; ');
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const ours = (entry: unknown): boolean =>
  isObject(entry) &&
  Array.isArray(entry.hooks) &&
  entry.hooks.some((h) => isObject(h) && typeof h.command === 'string' && h.command.includes(GUARD_MARK));

const guard: ScriptGuard = {
  settings: '.claude/settings.json',
  merge(current, guarded) {
    const rel = '.claude/settings.json';
    // Names go into a shell pattern: only the characters skill names are made of.
    const odd = guarded.find((n) => !/^[a-z0-9][a-z0-9-]*$/.test(n));
    if (odd !== undefined) return { error: `skill name "${odd}" cannot be guarded (not a plain skill name)` };
    let base: Json = {};
    if (current !== undefined && current.trim()) {
      if (hasJsonComment(current)) return { error: `${rel} contains comments, which rewriting would delete` };
      try {
        const parsed: unknown = JSON.parse(current);
        if (!isObject(parsed)) return { error: `${rel} is not a JSON object` };
        base = parsed;
      } catch (e) {
        return { error: `${rel} is not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : 'parse error'})` };
      }
    }
    if (base.hooks !== undefined && !isObject(base.hooks)) return { error: `${rel}: "hooks" is not an object` };
    const hooks: Json = { ...(base.hooks as Json | undefined) };
    const pre = hooks.PreToolUse;
    if (pre !== undefined && !Array.isArray(pre)) return { error: `${rel}: "hooks.PreToolUse" is not a list` };
    const theirs = (pre ?? []).filter((e) => !ours(e));
    const had = theirs.length !== (pre ?? []).length;
    const mine = guarded.length
      ? [{ matcher: 'Bash', hooks: [{ type: 'command', command: guardCommand(guarded) }] }]
      : [];
    const list = [...theirs, ...mine];
    if (list.length) hooks.PreToolUse = list;
    else delete hooks.PreToolUse;
    const next: Json = { ...base };
    if (Object.keys(hooks).length) next.hooks = hooks;
    else delete next.hooks;
    // Taking the hook out of a file that held nothing else leaves nothing to keep.
    if (!Object.keys(next).length && (current === undefined || had)) return { content: undefined, had };
    return { content: `${JSON.stringify(next, null, 2)}\n`, had };
  },
  readInput(text, env) {
    let j: unknown;
    try {
      j = JSON.parse(text);
    } catch {
      return { ok: false, error: 'the hook input is not JSON' };
    }
    if (!isObject(j) || typeof j.cwd !== 'string' || !j.cwd.startsWith('/'))
      return { ok: false, error: 'the hook input has no absolute "cwd"' };
    const toolInput = isObject(j.tool_input) ? j.tool_input : {};
    const root = env.CLAUDE_PROJECT_DIR?.startsWith('/') ? env.CLAUDE_PROJECT_DIR : j.cwd;
    const value: GuardQuestion = { cwd: j.cwd, root, toolInput };
    if (j.tool_name !== 'Bash') return { ok: true, value };
    if (typeof toolInput.command !== 'string') return { ok: false, error: 'the Bash call has no command' };
    return { ok: true, value: { ...value, command: toolInput.command } };
  },
  answer(decision: GuardDecision, question: GuardQuestion, routed?: string) {
    if (decision.kind === 'pass') return '';
    const out: Json = { hookEventName: 'PreToolUse' };
    if (decision.kind === 'deny') {
      out.permissionDecision = 'deny';
      out.permissionDecisionReason = decision.reason;
    } else {
      // No permissionDecision: the agent's own permission rules then judge the routed command
      // as they would have judged the original ("allow" would skip them; "ask" is a refusal
      // under -p). Measured with 2.1.197 (tests/agents/claude-guard.test.ts).
      out.permissionDecisionReason = `Skillsmith runs ${decision.skill}/${decision.script} in its sandbox, with the permissions its review approved`;
      out.updatedInput = { ...question.toolInput, command: routed };
    }
    return `${JSON.stringify({ hookSpecificOutput: out })}\n`;
  },
  source:
    'code.claude.com/docs/en/hooks: a PreToolUse hook in .claude/settings.json sees each Bash command (JSON on stdin, CLAUDE_PROJECT_DIR set); its JSON answer denies the call or replaces its input (updatedInput); exit 2 blocks it, any other failure lets it run',
  verified: { version: '2.1.197', checked: '2026-12-07' },
};

/**
 * Claude Code: `.claude/skills/<n>/SKILL.md` (+ `allowed-tools`, + scripts/) and one command shim per trigger command.
 */
export const claudeCode: TargetDef = {
  id: 'claude-code',
  agent: 'Claude Code',
  markers: ['.claude'],
  outputs: [
    '.claude/skills/<n>/SKILL.md',
    '.claude/skills/<n>/scripts/** (requires scripts)',
    '.claude/commands/<command>.md',
    '.claude/settings.json (the script guard hook, merged by key, while a delivered skill has scripts)',
  ],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  nativeTools: 'comma',
  vendorDoc: {
    title: 'Claude Code — Agent Skills and slash commands (code.claude.com/docs/en/skills)',
    url: 'https://code.claude.com/docs/en/skills',
    checked: '2026-12-01',
  },
  skillDir: '.claude/skills',
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: true,
  actsOn: {
    keys: [
      'hooks',
      'allowed-tools',
      'disallowed-tools',
      'context',
      'agent',
      'model',
      'disable-model-invocation',
      'user-invocable',
    ],
    dynamicContext: true,
    source:
      'code.claude.com/docs/en/skills: hooks run on tool events, allowed-tools pre-approves tools, context: fork runs the skill in a subagent; !`command` lines run when the skill loads',
  },
  descriptionLimit: {
    max: 1536,
    unit: 'chars',
    drops: false,
    source: 'Claude Code skills listing: each description is cut at 1,536 characters',
  },
  listingBudget: {
    perSkillChars: 1536,
    totalChars: 30_000,
    overflow: 'name-only',
    entryChars: { fixed: 5, perName: 1 },
    // Its bundled skills, measured (4,284 characters of lines); /review and /security-review come
    // after the project's skills and take only what is left.
    builtIn: [
      { name: 'deep-research', descriptionChars: 470 },
      { name: 'update-config', descriptionChars: 690 },
      { name: 'keybindings-help', descriptionChars: 228 },
      { name: 'verify', descriptionChars: 250 },
      { name: 'code-review', descriptionChars: 346 },
      { name: 'simplify', descriptionChars: 176 },
      { name: 'fewer-permission-prompts', descriptionChars: 163 },
      { name: 'loop', descriptionChars: 306 },
      { name: 'claude-api', descriptionChars: 1068 },
      { name: 'run', descriptionChars: 361 },
      { name: 'init', descriptionChars: 59 },
    ],
    source:
      'Claude Code 2.1.197 (default model), measured through tests/agents: the skills listing keeps to about 30,000 characters with its bundled skills first; past it a skill is listed by name alone, never left out; descriptions are cut at 1,536 characters (documented)',
    measured: { version: '2.1.197', checked: '2026-12-07' },
  },
  importFrom: [{ dir: '.claude/skills', layout: 'skill-dir' }],
  watchRoots: ['.claude'],
  mcp: { path: '.mcp.json', shape: 'claude-mcp-json', merged: false },
  scriptGuard: guard,
  instructions: [{ path: 'CLAUDE.md', loading: 'eager' }],
  managedDirs: [
    { dir: '.claude/skills', suffix: '/SKILL.md', wholeDir: true },
    { dir: '.claude/commands', suffix: '.md' },
  ],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.claude'),
  constraints: () => [],
  emit(p) {
    const base = emitSkillDir(this, '.claude/skills', p, { allowedTools: this.nativeTools });
    const shims = p.skill.manifest.triggers.commands.map((cmd) => ({
      path: `.claude/commands/${cmd.replace(/^\//, '')}.md`,
      content: `${header(p)}\n\nLoad the "${p.name}" skill: read .claude/skills/${p.name}/SKILL.md and follow it exactly.\n\nArguments: $ARGUMENTS\n`,
    }));
    return { ...base, files: [...base.files, ...shims] };
  },
};
