import type { ReactNode } from 'react';

/**
 * The words the app uses that a newcomer may not know, explained once, here. Every screen
 * that shows one of them wraps it in <Term>, so the explanation is the same everywhere.
 */
export const GLOSSARY = {
  standing:
    'Standing cost: the tokens an agent loads into every session just because the skill is installed, before anyone uses it.',
  stub: 'Stub: the short part of a skill (name and description) a lazy agent keeps in every session; the body loads only when the skill is used.',
  lazy: 'Lazy: the agent keeps only each skill’s stub in context and loads the full text when the skill is needed.',
  eager:
    'Eager: the agent loads the whole text of every skill into every session (e.g. one AGENTS.md), so each skill costs its full size all the time.',
  gate: 'Gate: a skill whose script must pass (run in the sandbox) before the agent may go on — a check, not just instructions.',
  bare: 'Bare: a plain SKILL.md with no skill.toml; defaults apply for version, budgets and permissions.',
  drift:
    'Drift: the installed files no longer match the fingerprint pinned in kitbash.lock — edited by hand, or changed on disk.',
  pinned:
    'Pinned: recorded in kitbash.lock with its source and a fingerprint of its files, so installs are reproducible and edits are noticed.',
  degraded:
    'Degraded: the agent receives the skill, but some part of it (scripts, permissions, commands) cannot be expressed for that agent.',
  warning:
    'Warnings are shown but never block installing or compiling; only a strict check (as CI may run) fails on them.',
  advisory:
    'Advisory: the skill declares the restriction, but nothing on this machine holds the script to it — the skill is trusted to keep it.',
  held: 'Held in the agent: the agent’s own runs of the skill’s scripts go through Skillsmith’s sandbox, by a hook compile adds to the agent’s settings, so the declared network, write and reads hold there too. The agent’s own tools are not covered.',
  exception:
    'Reviewed exception: an entry in kitbash.toml that accepts one blocking finding of one exact version of a skill, naming who accepted it and why; any change to the skill ends it.',
  closure:
    'Dependency closure: the skill, every skill it requires, and theirs in turn — reviewed, installed and pinned together.',
  baseline:
    'Baseline: the same trials run without the skill, so the difference in pass rate shows what the skill itself adds.',
  scenario:
    'Scenario test: an input kept in the spec with the decision it must lead to (its expect block), so a rule change that alters the decision is caught.',
  elicit: 'Elicit: a question the spec has the agent ask the user before it goes on, with the choices it may offer.',
} as const;

export type Term = keyof typeof GLOSSARY;

export function isTerm(word: string): word is Term {
  return Object.prototype.hasOwnProperty.call(GLOSSARY, word);
}

/** A word that may be a glossary term (e.g. a target's loading mode), explained when it is one. */
export function Word({ word, plain }: { word: string; plain?: boolean }) {
  return isTerm(word) ? (
    <Term term={word} plain={plain}>
      {word}
    </Term>
  ) : (
    <>{word}</>
  );
}

/**
 * A glossary word: dotted underline and the explanation as its tooltip (a title, so no
 * table cell or panel edge clips it); focusable, so keyboard and screen-reader users get
 * it as the element's description too.
 */
export function Term({ term, children, plain }: { term: Term; children?: ReactNode; plain?: boolean }) {
  // `plain` in table rows: one tab stop per row is enough, the row itself is the target.
  return (
    <span className="term" title={GLOSSARY[term]} tabIndex={plain ? undefined : 0} data-term={term}>
      {children ?? term}
    </span>
  );
}
