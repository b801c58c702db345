import { existsSync, linkSync, renameSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CONFIG_FILE } from '../../../shared/project/config';
import { templateWithTargets } from '../../../shared/targets/choose';
import type { TargetId } from '../../../shared/targets/types';
import { withProjectDir, writeNewFile } from '../fs/inside';
import { SKILLS_DIR } from '../skills/locate';

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

/**
 * `init`: write kitbash.toml from the template, with the chosen `[project].targets` (spec
 * D220), and create `.kitbash/skills/`. The file is
 * written whole under a temporary name, then linked into place — the link fails if a
 * kitbash.toml exists, so one is never overwritten, even one created a moment ago.
 * Returns false when kitbash.toml was already there (nothing is written then).
 */
export function initProject(root: string, targets: readonly TargetId[]): boolean {
  const text = templateWithTargets(INIT_TEMPLATE, targets);
  const created = withProjectDir(root, '', {}, (dir) => {
    const tmp = `.${CONFIG_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeNewFile(dir, tmp, text);
    try {
      linkSync(dir.at(tmp), dir.at(CONFIG_FILE));
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      // A file system without hard links (FAT, some network shares): checked, then renamed.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
      if (existsSync(dir.at(CONFIG_FILE))) return false;
      renameSync(dir.at(tmp), dir.at(CONFIG_FILE));
      return true;
    } finally {
      if (existsSync(dir.at(tmp))) unlinkSync(dir.at(tmp));
    }
  });
  if (created) withProjectDir(root, SKILLS_DIR, { create: true }, () => undefined);
  return created;
}
