import { useEffect, useRef, type RefObject } from 'react';
import { monaco, type editor } from '../../monaco/setup';
import type { Meter, Range } from './analyze';

/** The standing stub highlighted in SKILL.md, with what it costs in its hover. */
export function useStubDecoration(
  ed: RefObject<editor.IStandaloneCodeEditor | null>,
  shown: boolean,
  stub: Range | null,
  meter: Meter | null,
): void {
  const deco = useRef<editor.IEditorDecorationsCollection | null>(null);
  const start = stub?.startLine;
  const end = stub?.endLine;
  const tokens = meter ? `${meter.stubTokens}/${meter.standing}` : '';
  useEffect(() => {
    const instance = ed.current;
    if (!instance) return;
    deco.current ??= instance.createDecorationsCollection([]);
    if (!shown || start === undefined || end === undefined) {
      deco.current.clear();
      return;
    }
    const [used, of] = tokens.split('/');
    deco.current.set([
      {
        range: new monaco.Range(start, 1, end, 1),
        options: {
          isWholeLine: true,
          className: 'ed-stub-line',
          linesDecorationsClassName: 'ed-stub-gutter',
          hoverMessage: {
            value: `**Standing stub** — what a lazy agent keeps in every session${tokens ? ` (~${used} of ${of} tokens)` : ''}. The rest of the body loads only when the skill is used.`,
          },
        },
      },
    ]);
  }, [ed, shown, start, end, tokens]);
}
