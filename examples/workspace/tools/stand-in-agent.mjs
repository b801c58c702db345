#!/usr/bin/env node
// A stand-in coding agent for Skillsmith's eval tests and the example workspace: it behaves
// deterministically with and without a skill and prints its transcript in the format a
// real agent's headless mode uses (Claude Code stream-json, Codex exec --json, Gemini CLI
// stream-json, or plain text). Usage: stand-in-agent.mjs [--format F] <task>
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
let format = 'text';
if (args[0] === '--format') {
  format = args[1];
  args.splice(0, 2);
}
const task = args.join(' ');
const say = (obj) => process.stdout.write(`${typeof obj === 'string' ? obj : JSON.stringify(obj)}\n`);

// Failure modes the tests drive through the task text.
if (task.includes('[sleep]')) setInterval(() => undefined, 1000);
else if (task.includes('[crash]')) process.kill(process.pid, 'SIGKILL');
else if (/\[exit (\d+)\]/.test(task)) {
  say('giving up');
  process.exit(Number(/\[exit (\d+)\]/.exec(task)[1]));
} else if (task.includes('[garbage]')) say('this is not a JSON event stream');
else main();

function findSkill() {
  for (const dir of ['.claude/skills', '.agents/skills', '.gemini/skills']) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name, 'SKILL.md');
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      const description = /^description:\s*"?(.*?)"?\s*$/m.exec(text)?.[1] ?? '';
      const toml = join('.kitbash/skills', name, 'skill.toml');
      const version = existsSync(toml) ? (/^version\s*=\s*"([^"]+)"/m.exec(readFileSync(toml, 'utf8'))?.[1] ?? '0.0.0') : '0.0.0';
      return { name, file, description, version };
    }
  }
  return undefined;
}

function main() {
  if (task.includes('[env]')) return finish(undefined, [], `env: ${Object.keys(process.env).sort().join(' ')}`);
  const probe = /\[probe ([^\]]+)\]/.exec(task);
  if (probe) {
    const seen = existsSync(probe[1]) ? 'visible' : 'hidden';
    return finish(undefined, [], `probe: ${seen}`);
  }
  const skill = findSkill();
  // The stand-in "triggers" when the task shares a word of six letters or more with the description.
  const words = (skill?.description.toLowerCase().match(/[a-z']{6,}/g) ?? []);
  const load = skill !== undefined && words.some((w) => task.toLowerCase().includes(w));
  const tools = [];
  if (load) {
    writeFileSync('REVIEW.md', `# Review\n\nTask: ${task}\n\nNo blocking findings.\n`);
    tools.push({ name: 'write', path: 'REVIEW.md' });
    mkdirSync('.kitbash/artifacts', { recursive: true });
    const findings = { artifact: 'findings@1', skill: `${skill.name}@${skill.version}`, created: '2026-12-02T00:00:00Z', findings: [{ severity: 'note', rule: 'style/naming', message: 'a note' }] };
    writeFileSync('.kitbash/artifacts/findings.json', JSON.stringify(findings, null, 2));
    tools.push({ name: 'write', path: '.kitbash/artifacts/findings.json' });
  }
  finish(load ? skill : undefined, tools, load ? 'Review complete: 0 blocking findings.' : 'Looks fine to me.');
}

function finish(skill, tools, reply) {
  if (format === 'claude-code') {
    say({ type: 'system', subtype: 'init', session_id: 's-1', tools: ['Skill', 'Read', 'Write', 'Bash'] });
    // Each tool_use is answered by a user line with its tool_result, as the real CLI writes them.
    const result = (id, content) => say({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });
    if (skill) {
      say({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Skill', input: { skill: skill.name } }] } });
      result('t1', `Launching skill: ${skill.name}`);
    }
    for (const [i, t] of tools.entries()) {
      say({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `w${i}`, name: 'Write', input: { file_path: t.path } }] } });
      result(`w${i}`, `File created successfully at: ${t.path}`);
    }
    say({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: reply }] } });
    say({ type: 'result', subtype: 'success', is_error: false, result: reply, session_id: 's-1' });
  } else if (format === 'codex') {
    say({ type: 'thread.started', thread_id: 'th-1' });
    say({ type: 'turn.started' });
    if (skill) say({ type: 'item.completed', item: { id: 'i0', type: 'command_execution', command: `bash -lc 'cat ${skill.file}'`, exit_code: 0, status: 'completed' } });
    if (tools.length) say({ type: 'item.completed', item: { id: 'i1', type: 'file_change', changes: tools.map((t) => ({ path: t.path, kind: 'add' })), status: 'completed' } });
    say({ type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: reply } });
    say({ type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } });
  } else if (format === 'gemini') {
    say({ type: 'init', timestamp: '2026-12-02T00:00:00Z', session_id: 's-1', model: 'stand-in' });
    say({ type: 'message', role: 'user', content: task });
    // As Gemini CLI 0.61.0 streams them: every tool_use is answered by a tool_result with its tool_id.
    if (skill) {
      say({ type: 'tool_use', tool_name: 'activate_skill', tool_id: 'a1', parameters: { name: skill.name } });
      say({ type: 'tool_result', tool_id: 'a1', status: 'success', output: `Skill **${skill.name}** activated.` });
    }
    for (const [i, t] of tools.entries()) {
      say({ type: 'tool_use', tool_name: 'write_file', tool_id: `w${i}`, parameters: { file_path: t.path } });
      say({ type: 'tool_result', tool_id: `w${i}`, status: 'success' });
    }
    say({ type: 'message', role: 'assistant', content: reply, delta: true });
    say({ type: 'result', status: 'success', stats: { total_tokens: 15 } });
  } else say(reply);
}
