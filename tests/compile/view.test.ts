import { describe, expect, it } from 'vitest';
import { memoryView, planCompile } from '../../shared/compile';
import { EMPTY_CONFIG } from '../../shared/project/config';
import { skill } from './helpers';

describe('memoryView (planning without a disk)', () => {
  it('detects markers, reads text and bytes, lists folders', () => {
    const v = memoryView({
      '.claude/': '',
      'AGENTS.md': 'é\n',
      '.cursor/rules/a.mdc': 'x',
      '.cursor/rules/sub/b': 'y',
    });
    expect(v.exists('.claude')).toBe(true);
    expect(v.exists('.zed')).toBe(false);
    expect(v.read('AGENTS.md')).toBe('é\n');
    expect([...v.readBytes!('AGENTS.md')!]).toEqual([0xc3, 0xa9, 0x0a]);
    expect(v.list('.cursor/rules')).toEqual([
      { name: 'a.mdc', kind: 'file' },
      { name: 'sub', kind: 'dir' },
    ]);
  });

  it('a plan over it sees existing output as unchanged', () => {
    const s = skill('live');
    const first = planCompile({ skills: [s], config: EMPTY_CONFIG, project: memoryView({ '.claude/': '' }) });
    const files: Record<string, string> = { '.claude/': '' };
    for (const f of [...first.write, ...first.merge]) files[f.path] = f.content as string;
    const again = planCompile({ skills: [s], config: EMPTY_CONFIG, project: memoryView(files) });
    expect([...again.write, ...again.merge].map((f) => [f.path, f.changed])).toEqual([
      ['.claude/skills/live/SKILL.md', false],
      ['AGENTS.md', false],
    ]);
  });
});
