import { memo, useMemo } from 'react';

/** Lines per block: a keystroke re-lays out one block, and the browser tracks few blocks. */
const BLOCK_LINES = 64;

/**
 * A file's text in blocks of lines: a keystroke re-renders only the block it changed, and
 * blocks scrolled out of view are not laid out (content-visibility). One element per line
 * would cost the browser an intersection check per line on every frame — on a
 * 20,000-token output that was most of the main thread while typing in the editor beside
 * it. Copying the text gives it back line for line.
 */
export function OutputText({ text }: { text: string }) {
  const blocks = useMemo(() => {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const out: { text: string; lines: number }[] = [];
    for (let i = 0; i < lines.length;) {
      // A block ends on a non-empty line: a trailing newline inside a block would not show as a line.
      let end = Math.min(lines.length, i + BLOCK_LINES);
      while (end < lines.length && lines[end - 1] === '') end++;
      const part = lines.slice(i, end);
      out.push({ text: part.join('\n') + (part[part.length - 1] === '' ? '\n' : ''), lines: part.length });
      i = end;
    }
    return out;
  }, [text]);
  return (
    <div className="pv-file-content" data-testid="preview-output" tabIndex={0} aria-label="Compiled output">
      {blocks.map((b, i) => (
        <Block key={i} text={b.text} lines={b.lines} />
      ))}
    </div>
  );
}

const Block = memo(function Block({ text, lines }: { text: string; lines: number }) {
  return (
    <div className="pv-out-line" style={{ containIntrinsicSize: `auto ${(lines * 18.6).toFixed(1)}px` }}>
      {text}
    </div>
  );
});
