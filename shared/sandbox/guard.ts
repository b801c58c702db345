/**
 * The script guard's decision (SPEC D200): given one shell command an agent is about to run,
 * does it run a script of a skill Skillsmith delivered, and if so how is it routed through
 * `skillsmith run` — or refused, when it touches a delivered skill's folder in a way that
 * cannot be routed. Agent-neutral and pure: each agent's module reads its own hook input
 * and writes its own answer around this.
 *
 * It reads the command text, so it holds for the ways an agent runs a script as a skill
 * tells it to (`sh .claude/skills/x/scripts/a.sh`, `./…/a.sh`, `python3 …/a.py`). It cannot
 * see a script copied elsewhere by the agent's file tools, or its text fed to an
 * interpreter: those are what SPEC D200 names as not caught.
 */

export type GuardDecision =
  /** The command names no delivered skill's folder: the agent runs it as it would anyway. */
  | { readonly kind: 'pass' }
  /** Run `script` (relative to the skill folder) of `skill` through `skillsmith run` instead. */
  | {
      readonly kind: 'route';
      readonly skill: string;
      readonly script: string;
      readonly args: readonly string[];
    }
  /** It touches a delivered skill's folder in a way that cannot be routed: not run. */
  | { readonly kind: 'deny'; readonly reason: string };

export interface GuardInput {
  readonly command: string;
  /** Absolute working directory the agent runs the command in. */
  readonly cwd: string;
  /** Absolute project root. */
  readonly root: string;
  /** The agent's skill folder, project-relative ('.claude/skills'). */
  readonly skillDir: string;
  /** Names of the skills Skillsmith delivered there that the guard holds. */
  readonly guarded: ReadonlySet<string>;
  /**
   * The file system under `root` finds a name whatever its case (macOS and Windows by
   * default), so `.CLAUDE/Skills/x` is the delivered folder too and must be matched as it.
   */
  readonly caseFold?: boolean;
}

/** Programs that only read the files they are given: naming a skill's file to them runs nothing. */
const READERS = new Set(['cat', 'head', 'tail', 'wc', 'ls', 'file', 'stat', 'grep', 'diff']);
/** Interpreters a skill's script is commonly run with; `skillsmith run` picks its own by the script. */
const INTERPRETERS = new Set(['sh', 'bash', 'dash', 'zsh', 'python', 'python3', 'node', 'ruby', 'perl']);

export function guardCommand(input: GuardInput): GuardDecision {
  const { command, cwd, root, skillDir } = input;
  // Where case does not tell names apart, every path and name is compared folded. ASCII only,
  // which keeps lengths (a relative path is cut from the command's own spelling) and covers
  // every spelling of a skill folder: skill names and agent folders are ASCII.
  const fold = input.caseFold ? (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : (s: string) => s;
  const guarded = new Map([...input.guarded].map((n) => [fold(n), n]));
  const skillsAbs = join(root, skillDir);
  const inFolder = (abs: string): string | undefined => {
    const rel = under(skillsAbs, abs, fold);
    return rel === undefined ? undefined : guarded.get(fold(rel.split('/')[0]!));
  };
  const cwdSkill = inFolder(cwd);
  const words = simpleWords(command);
  if (words === undefined) {
    // Not a plain command (pipes, substitutions, redirections, lists): refused if it names a
    // delivered skill's folder anywhere in its text, or runs from inside one.
    const named = [...guarded].find(([n]) => fold(command).includes(`skills/${n}`))?.[1];
    if (cwdSkill === undefined && named === undefined) return { kind: 'pass' };
    return deny(cwdSkill ?? named!, 'it is not a plain command Skillsmith can route through its sandbox');
  }
  const touched = words
    .map((w, i) => ({ i, w, skill: inFolder(resolvePath(cwd, w)) }))
    .filter((t) => t.skill !== undefined);
  if (touched.length === 0 && cwdSkill === undefined) return { kind: 'pass' };
  // A program named by path is whatever file is there, not the reader or interpreter it is named like.
  const program = words[0]!.includes('/') ? '' : words[0]!;
  if (READERS.has(program)) return { kind: 'pass' };
  const at = INTERPRETERS.has(program) ? 1 : 0;
  const first = touched[0];
  if (first === undefined || first.i !== at || touched.length > 1)
    return deny(first?.skill ?? cwdSkill!, 'only a run of one of its scripts, by path, can be routed');
  const rel = under(join(skillsAbs, first.skill!), resolvePath(cwd, first.w), fold)!;
  if (!/^scripts\/[^/]+$/.test(rel))
    return deny(first.skill!, `${rel} is not one of its scripts/ (only those run through the sandbox)`);
  return { kind: 'route', skill: first.skill!, script: rel, args: words.slice(at + 1) };
}

function deny(skill: string, why: string): GuardDecision {
  return {
    kind: 'deny',
    reason: `Skillsmith: not run — this touches the delivered skill "${skill}", whose scripts run only through its sandbox, and ${why}. Run the script as \`skillsmith run ${skill} scripts/<file> -- <args>\`.`,
  };
}

/**
 * The words of a plain command — literal words separated by blanks, with quotes and
 * backslashes undone — or undefined for anything else the shell would interpret:
 * operators, redirections, substitutions, variables, globs, assignments, comments.
 */
export function simpleWords(command: string): string[] | undefined {
  const out: string[] = [];
  let word: string | undefined;
  let i = 0;
  const s = command.trim();
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== undefined) out.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + s.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < s.length && s[j] !== '"'; j++) {
        if (s[j] === '$' || s[j] === '`') return undefined;
        if (s[j] === '\\' && j + 1 < s.length && '"\\$`'.includes(s[j + 1]!)) j++;
        text += s[j];
      }
      if (j >= s.length) return undefined;
      word = (word ?? '') + text;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= s.length || s[i + 1] === '\n') return undefined;
      word = (word ?? '') + s[i + 1];
      i += 2;
    } else if ('|&;<>()$`*?[]{}~#!\n\r='.includes(c)) {
      // `=` only matters as an assignment before the program, but a word holding one is
      // rare enough in a script run that refusing it is the simpler rule.
      if (c === '=' && out.length > 0) {
        word = (word ?? '') + c;
        i++;
        continue;
      }
      return undefined;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) out.push(word);
  return out.length ? out : undefined;
}

/**
 * `path` below `dir` as a '/'-separated relative path in `path`'s spelling, or undefined (both
 * absolute, normalised; compared through `fold`, which keeps lengths).
 */
function under(dir: string, path: string, fold: (s: string) => string): string | undefined {
  if (!fold(path).startsWith(`${fold(dir)}/`)) return undefined;
  return path.slice(dir.length + 1) || undefined;
}

function resolvePath(cwd: string, p: string): string {
  return join(p.startsWith('/') ? '/' : cwd, p);
}

/** POSIX join with `.` and `..` resolved lexically (the command has not run; no link is followed). */
function join(base: string, rel: string): string {
  const parts: string[] = [];
  for (const seg of `${base}/${rel}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}
