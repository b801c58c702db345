import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withProjectDir, writeFileInside } from '../../services/fs/inside';
import { SKILLS_DIR } from '../../services/skills/locate';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { EXIT } from '../io';

/** The reference's template, so both tools start a project the same way. */
export const INIT_TEMPLATE = `# kitbash project configuration — https://github.com/singhharsh1708/kitbash
[project]
# Adapters to compile for. Omit to autodetect (.claude/, .cursor/, AGENTS.md floor).
# targets = ["claude-code", "cursor", "agentsmd"]

# Install policy (org allowlist). Enforced at install and rechecked by doctor.
# [policy]
# allow_sources = ["gh:your-org/*"]  # globs; matched against gh:owner/repo[/path][@ref] or file:/abs/path
# deny_network = true                # refuse skills declaring network permission
# deny_write = true                  # refuse skills declaring write permission
# max_budget = 6000                  # refuse skills with a larger context budget
# deny_remote_exec = false           # opt OUT of the download-and-execute body lint (default: on)
# deny_mcp = true                    # refuse skills declaring any MCP server
# max_mcp_tools = 100                # cap declared MCP tools across all skills (default: 100)
# allow_mcp_servers = ["https://mcp.your-org.com/*"]  # globs; matched against a server's command or url
`;

/** `init`: write kitbash.toml (only if absent) and create .kitbash/skills/. */
export function runInit(argv: readonly string[], io: CliIo): ExitCode {
  parseCommandArgs(argv, {});
  if (existsSync(join(io.cwd, 'kitbash.toml'))) {
    io.out('kitbash.toml already exists — nothing to do\n');
    return EXIT.ok;
  }
  writeFileInside(io.cwd, 'kitbash.toml', INIT_TEMPLATE);
  withProjectDir(io.cwd, SKILLS_DIR, { create: true }, () => undefined);
  io.out(
    'created kitbash.toml and .kitbash/skills/\nnext: skillsmith install <gh:owner/repo | owner/repo | git URL | file:path>, then skillsmith compile\n',
  );
  return EXIT.ok;
}
