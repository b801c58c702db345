import { useMemo, useState } from 'react';
import { sectionMarkers } from '../../../../shared/targets/common';
import { DiffView } from './DiffView';
import type { PreviewFile } from './live';
import { OutputText } from './OutputText';

function fileState(f: PreviewFile): { word: string; cls: string } {
  if (f.disk === undefined) return { word: 'new', cls: 'new' };
  if (f.changed) return { word: 'differs from disk', cls: 'changed' };
  return { word: 'up to date', cls: 'same' };
}

/** This skill's marked section of a merged file (AGENTS.md, CONVENTIONS.md), markers included. */
export function ownSection(text: string, skill: string): string | undefined {
  const { begin, end } = sectionMarkers(skill);
  const a = text.indexOf(begin);
  const b = a === -1 ? -1 : text.indexOf(end, a);
  return b === -1 ? undefined : text.slice(a, b + end.length);
}

/** A file's content as text: copied scripts are bytes, shown as text when they are valid UTF-8. */
function asText(content: string | Uint8Array): string | undefined {
  if (typeof content === 'string') return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

export function FileCard({ file, skill }: { file: PreviewFile; skill: string }) {
  const section =
    file.merge === 'section' && typeof file.content === 'string' ? ownSection(file.content, skill) : undefined;
  const [mode, setMode] = useState<'section' | 'output' | 'diff'>(section !== undefined ? 'section' : 'output');
  const text = useMemo(() => asText(file.content), [file.content]);
  const binary = text === undefined;
  const state = fileState(file);
  return (
    <article className="preview-file" data-path={file.path} data-state={state.cls}>
      <header className="pf-head">
        <span className="pf-path">{file.path}</span>
        {file.merge && (
          <span className="tag subtle">{file.merge === 'section' ? 'merged section' : 'settings, merged by key'}</span>
        )}
        {file.servedBy && <span className="tag subtle">shared .agents/skills copy</span>}
        <span className={`pf-state ${state.cls}`}>{state.word}</span>
        <span className="pf-spacer" />
        {!binary && (
          <div className="segmented" role="group" aria-label={`View of ${file.path}`}>
            {section !== undefined && (
              <button
                type="button"
                className={mode === 'section' ? 'on' : ''}
                aria-pressed={mode === 'section'}
                onClick={() => setMode('section')}
              >
                This skill
              </button>
            )}
            <button
              type="button"
              className={mode === 'output' ? 'on' : ''}
              aria-pressed={mode === 'output'}
              onClick={() => setMode('output')}
            >
              {section !== undefined ? 'Whole file' : 'Output'}
            </button>
            <button
              type="button"
              className={mode === 'diff' ? 'on' : ''}
              aria-pressed={mode === 'diff'}
              onClick={() => setMode('diff')}
            >
              Diff vs disk
            </button>
          </div>
        )}
      </header>
      {binary ? (
        <p className="muted small pf-binary">
          {(file.content as Uint8Array).length.toLocaleString('en-US')} bytes, copied as is
        </p>
      ) : mode === 'section' && section !== undefined ? (
        <OutputText text={section} />
      ) : mode !== 'diff' ? (
        <OutputText text={text} />
      ) : (
        <DiffView before={file.disk ?? ''} after={text} absent={file.disk === undefined} />
      )}
    </article>
  );
}
