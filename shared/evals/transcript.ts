import { plural } from '../text/format';
import type { Transcript, TranscriptEntry, TranscriptFormat, Tri } from './model';

/**
 * Reading an agent's headless output. Each reader follows its vendor's documented event
 * stream (see the presets in runners.ts for the doc and the date checked). "Loaded" is
 * claimed only on evidence (the agent's skill tool, or a read of the skill's SKILL.md);
 * "not loaded" only when the stream ran to its final event; otherwise "unknown".
 */
export function readTranscript(format: TranscriptFormat, stdout: string, skill: string): Transcript {
  if (format === 'text')
    return {
      skillLoaded: 'unknown',
      tools: [],
      entries: stdout ? [{ kind: 'message', text: stdout }] : [],
      output: stdout,
      finished: 'unknown',
    };
  const events: Record<string, unknown>[] = [];
  let bad = 0;
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    try {
      const v: unknown = JSON.parse(t);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) events.push(v as Record<string, unknown>);
      else bad++;
    } catch {
      bad++;
    }
  }
  if (events.length === 0) {
    return {
      skillLoaded: 'unknown',
      tools: [],
      entries: [],
      output: stdout,
      finished: 'no',
      problem:
        stdout.trim() === ''
          ? `no ${format} events on stdout (empty output)`
          : `stdout is not a ${format} JSON event stream (${plural(bad, 'unreadable line')})`,
    };
  }
  const r =
    format === 'claude-code'
      ? claude(events, skill)
      : format === 'codex'
        ? codex(events, skill)
        : gemini(events, skill);
  const loaded: Tri = r.evidence ? 'yes' : r.complete ? 'no' : 'unknown';
  return {
    skillLoaded: loaded,
    tools: [...new Set(r.entries.filter((e) => e.kind === 'tool').map((e) => e.tool!))],
    entries: r.entries,
    output: r.output,
    finished: r.complete ? 'yes' : 'no',
  };
}

interface Read {
  entries: TranscriptEntry[];
  output: string;
  evidence: boolean;
  complete: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A path or command that reads this skill's SKILL.md in any agent's skill folder. */
function readsSkillFile(text: string, skill: string): boolean {
  return new RegExp(`(?:^|[\\s"'/])skills/${skill.replace(/[-]/g, '\\-')}/SKILL\\.md\\b`).test(text);
}

/**
 * Claude Code `-p --output-format stream-json --verbose`: system/assistant/user/result lines.
 * A load is a `Skill` call naming the skill (Claude Code also accepts `/name`) or a read of its
 * SKILL.md, counted only once its `tool_result` came back without `is_error`: a denied or
 * unknown skill answers with an error result. The run completed only when the `result` line
 * is not an error: an API, auth or connection error ends in `is_error: true`, after which
 * nothing can be said of what the model would have done (measured with 2.1.197).
 */
function claude(events: readonly Record<string, unknown>[], skill: string): Read {
  const out: Read = { entries: [], output: '', evidence: false, complete: false };
  const loads = new Set<string>();
  let lastText = '';
  for (const e of events) {
    const type = str(e.type);
    const content = rec(e.message).content;
    const parts = (Array.isArray(content) ? content : []).map(rec);
    if (type === 'assistant') {
      for (const part of parts) {
        if (part.type === 'text') {
          lastText = str(part.text);
          out.entries.push({ kind: 'message', text: lastText });
        } else if (part.type === 'tool_use') {
          const name = str(part.name);
          const input = rec(part.input);
          out.entries.push({ kind: 'tool', tool: name, text: JSON.stringify(input) });
          const named = (v: unknown): boolean => str(v).replace(/^\//, '') === skill;
          const loading =
            (name === 'Skill' && (named(input.skill) || named(input.command))) ||
            readsSkillFile(str(input.file_path) || str(input.command), skill);
          if (loading) loads.add(str(part.id));
        }
      }
    } else if (type === 'user') {
      for (const part of parts)
        if (part.type === 'tool_result' && loads.has(str(part.tool_use_id)) && part.is_error !== true)
          out.evidence = true;
    } else if (type === 'result') {
      out.complete = e.is_error !== true;
      const text = str(e.result);
      out.entries.push({ kind: e.is_error === true ? 'error' : 'result', text });
      if (text) lastText = text;
    }
  }
  out.output = lastText;
  return out;
}

/**
 * A shell command that changes into this skill's folder and then names SKILL.md there, as
 * `cd .agents/skills/x && cat SKILL.md` (Codex wraps it: `/bin/bash -lc 'cd … && cat SKILL.md'`).
 */
function readsSkillFileAfterCd(command: string, skill: string): boolean {
  const name = skill.replace(/[-]/g, '\\-');
  return new RegExp(
    `(?:^|[\\s;&|('"])cd\\s+['"]?(?:\\S*/)?skills/${name}/?['"]?\\s*(?:&&|;|\\n)[^]*?[\\s"'](?:\\./)?SKILL\\.md\\b`,
  ).test(command);
}

/**
 * Codex `exec --json`: thread/turn events and items (agent_message, command_execution, …).
 * A read counts only when its command exited 0 (a `cat` of a missing file is no load). Codex
 * retries a failed request or a dropped stream itself and, when it gives up, ends with
 * `turn.failed` (and a non-zero exit) instead of `turn.completed`: only a turn that completed
 * and never failed can say "not loaded".
 */
function codex(events: readonly Record<string, unknown>[], skill: string): Read {
  const out: Read = { entries: [], output: '', evidence: false, complete: false };
  let completed = false;
  let failed = false;
  for (const e of events) {
    const type = str(e.type);
    if (type === 'turn.completed') completed = true;
    else if (type === 'turn.failed' || type === 'error') {
      if (type === 'turn.failed') failed = true;
      out.entries.push({ kind: 'error', text: str(rec(e.error).message) || str(e.message) });
    } else if (type === 'item.completed') {
      const item = rec(e.item);
      const it = str(item.type);
      if (it === 'agent_message') {
        out.output = str(item.text);
        out.entries.push({ kind: 'message', text: out.output });
      } else if (it === 'command_execution') {
        const command = str(item.command);
        out.entries.push({ kind: 'tool', tool: 'shell', text: command });
        const succeeded = item.exit_code === 0 && str(item.status) !== 'failed';
        if (succeeded && (readsSkillFile(command, skill) || readsSkillFileAfterCd(command, skill))) out.evidence = true;
      } else if (it === 'file_change') {
        const changes = Array.isArray(item.changes) ? item.changes.map((c) => str(rec(c).path)).join(', ') : '';
        out.entries.push({ kind: 'tool', tool: 'file_change', text: changes });
      } else if (it === 'mcp_tool_call') {
        out.entries.push({
          kind: 'tool',
          tool: `${str(item.server)}.${str(item.tool)}`,
          text: JSON.stringify(item.arguments ?? {}),
        });
      } else if (it === 'web_search') {
        out.entries.push({ kind: 'tool', tool: 'web_search', text: str(item.query) });
      }
    }
  }
  out.complete = completed && !failed;
  return out;
}

/**
 * Gemini CLI `--output-format stream-json`: init, message, tool_use, tool_result, error, result.
 * Measured with Gemini CLI 0.61.0 (tests/agents/gemini.test.ts): an activation the CLI refuses
 * (a name not in its listing) still has its tool_use, answered by a tool_result with status
 * "error", so only a successful result for the same tool_id is evidence; and an API error
 * (401, 500, a dropped stream) ends in a `result` with status "error", which is not a run
 * that could have loaded the skill and did not.
 */
function gemini(events: readonly Record<string, unknown>[], skill: string): Read {
  const out: Read = { entries: [], output: '', evidence: false, complete: false };
  let reply = '';
  const loading = new Set<string>();
  for (const e of events) {
    const type = str(e.type);
    if (type === 'message' && e.role === 'assistant') {
      reply = e.delta === true ? reply + str(e.content) : str(e.content);
      out.entries.push({ kind: 'message', text: str(e.content) });
    } else if (type === 'tool_use') {
      const name = str(e.tool_name);
      const params = rec(e.parameters);
      out.entries.push({ kind: 'tool', tool: name, text: JSON.stringify(params) });
      const loads =
        (name === 'activate_skill' && params.name === skill) ||
        readsSkillFile(str(params.file_path) || str(params.absolute_path) || str(params.command), skill);
      if (loads && str(e.tool_id) !== '') loading.add(str(e.tool_id));
    } else if (type === 'tool_result') {
      if (e.status === 'success' && loading.has(str(e.tool_id))) out.evidence = true;
      else if (e.status === 'error')
        out.entries.push({ kind: 'error', text: str(rec(e.error).message) || str(e.output) });
    } else if (type === 'error') out.entries.push({ kind: 'error', text: str(e.message) });
    else if (type === 'result') {
      out.complete = e.status === 'success';
      const failure = str(rec(e.error).message);
      out.entries.push({ kind: e.status === 'success' ? 'result' : 'error', text: failure || str(e.status) });
    }
  }
  out.output = reply;
  return out;
}
