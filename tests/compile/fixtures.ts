/**
 * Fixture projects for the compile suites, written to disk: a set of installed skills that
 * exercise every emission path (commands, permissions, `$` sequences, requires + scripts,
 * bare frontmatter, templates, eager disclosure, MCP servers, Zed's name rule, a manifested
 * SKILL.md with its own frontmatter), plus user files the compile must leave alone.
 */
import { mkdirSync, readdirSync, readFileSync, lstatSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Files = Record<string, string>;

const toml = (name: string, extra = '', description = `The ${name} skill, exercised by the compile suites.`): string =>
  `[skill]\nname = "${name}"\nversion = "1.0.0"\ndescription = "${description}"\n\n[context]\nbudget = 3000\nstanding = 120\n${extra}`;

/** Installed skills, keyed by relative path inside the project. */
export const SKILLS: Files = {
  '.kitbash/skills/alpha/skill.toml': toml(
    'alpha',
    '\n[triggers]\ncommands = ["/alpha", "/alpha-run"]\n\n[permissions]\nnetwork = true\n',
    'Alpha: quotes \\"here\\", a back\\\\slash and a colon: ok.',
  ),
  '.kitbash/skills/alpha/SKILL.md':
    "# Alpha\n\nRun make with $$HOME, sed with $& and $' literally.\n\n## Steps\n\n1. One.\n2. Two.\n",
  '.kitbash/skills/beta/skill.toml': toml(
    'beta',
    '\n[permissions]\ntools = ["read", "grep", "bash:git diff *"]\nwrite = true\n',
  ),
  '.kitbash/skills/beta/SKILL.md': '# Beta\n\nReview the diff before pushing.\n',
  '.kitbash/skills/gamma/skill.toml': toml('gamma', '\n[targets]\nrequires = ["scripts", "hooks"]\n'),
  '.kitbash/skills/gamma/SKILL.md': '# Gamma\n\nRun scripts/check.sh and report.\n',
  '.kitbash/skills/gamma/scripts/check.sh': '#!/bin/sh\necho checked\n',
  '.kitbash/skills/gamma/scripts/lib/util.sh': 'util() { :; }\n',
  '.kitbash/skills/delta/SKILL.md':
    '---\nname: delta\ndescription: A bare skill with frontmatter only.\n---\n\n# Delta\n\nBare instructions.\n',
  '.kitbash/skills/eps/skill.toml': toml('eps', '', 'Eps resolves templates and is eager.').replace(
    'standing = 120\n',
    'standing = 120\ndisclosure = "eager"\n',
  ),
  '.kitbash/skills/eps/SKILL.md': '# Eps\n\n{{prompt.intro}}\n\nWrite {{artifact.report}} using {{lore.decisions}}.\n',
  '.kitbash/skills/eps/prompts/intro.md': '\nStart from the intro prompt.\n\n',
  '.kitbash/skills/mcp-user/skill.toml': toml(
    'mcp-user',
    '\n[mcp.servers.files]\ncommand = "npx"\nargs = ["-y", "@scope/files-server@1.2.3"]\ntools = ["read_file", "list_dir"]\ntimeout_ms = 5000\n\n[mcp.servers.remote]\ntransport = "streamable-http"\nurl = "https://mcp.example.com/v1"\ntools = ["search"]\n\n[mcp.servers.remote.headers]\nAuthorization = "Bearer ${API_TOKEN}"\n',
  ),
  '.kitbash/skills/mcp-user/SKILL.md': '# MCP user\n\nUse the files server.\n',
  '.kitbash/skills/tidy--name/skill.toml': toml('tidy--name'),
  '.kitbash/skills/tidy--name/SKILL.md': '# Tidy\n\nA name Zed refuses.\n',
  '.kitbash/skills/fm-skill/skill.toml': toml('fm-skill'),
  '.kitbash/skills/fm-skill/SKILL.md':
    '---\nname: fm-skill\ndescription: its own frontmatter\n---\n\n# FM\n\nBody after frontmatter.\n',
};

/** One marker per detectable target, with the user files that marker brings. */
export const MARKERS: Readonly<Record<string, Files>> = {
  'claude-code': { '.claude/settings.local.json': '{}\n' },
  cursor: { '.cursor/.keep': '' },
  agents: { '.agents/.keep': '' },
  zed: {
    '.zed/settings.json':
      '{\n  "theme": "One Dark",\n  "context_servers": {\n    "mine": {\n      "command": "mine"\n    }\n  }\n}\n',
  },
  copilot: { '.github/workflows/ci.yml': 'on: push\n' },
  cline: { '.clinerules/house.md': '# House rules\n\nUser-written rule.\n' },
  windsurf: { '.devin/.keep': '' },
  gemini: { '.gemini/settings.json': '{\n  "ui": {\n    "theme": "dark"\n  }\n}\n' },
  aider: { 'CONVENTIONS.md': '# Conventions\n\nUser conventions stay.\n' },
  'agent-plugins': { 'agent-plugin/README.md': 'user readme\n' },
};

export const DETECTABLE = Object.keys(MARKERS);

/** The other marker of each target that has two (and both of windsurf's at once: .devin wins). */
export const ALTERNATE_MARKERS: Readonly<Record<string, Files>> = {
  'agents (.codex)': { '.codex/config.toml': 'model = "x"\n' },
  'cline (.cline)': { '.cline/.keep': '' },
  'windsurf (.windsurf)': { '.windsurf/.keep': '' },
  'windsurf (.devin + .windsurf)': { '.windsurf/.keep': '', '.devin/.keep': '' },
  'gemini (GEMINI.md)': { 'GEMINI.md': '# Gemini notes\n\nUser text.\n' },
  'aider (.aider.conf.yml, wired)': { '.aider.conf.yml': 'read: CONVENTIONS.md\n' },
  'agent-plugins (plugin.json)': { 'plugin.json': '{}\n' },
};

export const USER_FILES: Files = {
  'AGENTS.md': '# Project\n\nUser text outside any marker.\n',
  'README.md': 'readme\n',
};

export function writeTree(root: string, files: Files): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(root, ...rel.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
}

/** Every regular file under `root` except the skills, config and lock: path → content. */
export function readTree(
  root: string,
  skip = (rel: string) => rel.startsWith('.kitbash/') || rel === 'kitbash.toml' || rel === 'kitbash.lock',
): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs, r);
      else if (st.isFile()) out.set(r, readFileSync(abs, 'utf8'));
    }
  };
  walk(root, '');
  return out;
}
