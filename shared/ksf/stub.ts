const BLANK_LINE = /\n\s*\n/g;
const ATX_HEADING = /^#{1,6}\s/;

/**
 * The standing stub: the first blank-line-separated block that still has text once
 * heading lines are dropped — so a `# Title` never stands in for the description.
 */
export function standingStub(body: string): string {
  BLANK_LINE.lastIndex = 0;
  let start = 0;
  for (;;) {
    const m = BLANK_LINE.exec(body);
    const end = m ? m.index : body.length;
    const kept = body
      .slice(start, end)
      .split(/\r?\n/)
      .filter((line) => {
        const t = line.trim();
        return t !== '' && !ATX_HEADING.test(t);
      });
    if (kept.length > 0) return kept.join('\n').trim();
    if (!m) return '';
    start = m.index + m[0].length;
  }
}
