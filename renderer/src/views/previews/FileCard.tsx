import { useState } from 'react';
import type { PreviewFile } from '../../../../shared/ipc/channels/compile';
import { formatBytes, formatCount } from '../../../../shared/text/format';
import { DiffView } from './DiffView';
import { OutputText } from './OutputText';

function fileState(f: PreviewFile): { word: string; cls: string } {
  if (!f.onDisk) return { word: 'new', cls: 'new' };
  if (f.changed) return { word: 'differs from disk', cls: 'changed' };
  return { word: 'up to date', cls: 'same' };
}

type Mode = 'section' | 'output' | 'diff';

export function FileCard({ file }: { file: PreviewFile }) {
  const section = file.section ?? undefined;
  const [mode, setMode] = useState<Mode>(section !== undefined ? 'section' : 'output');
  const state = fileState(file);
  // Too large to send whole: this skill's section (merged files) is what there is to show.
  const whole = file.text !== null;
  const modes: { mode: Mode; label: string }[] = [
    ...(section !== undefined ? [{ mode: 'section' as const, label: 'This skill' }] : []),
    ...(whole ? [{ mode: 'output' as const, label: section !== undefined ? 'Whole file' : 'Output' }] : []),
    ...(whole || section !== undefined ? [{ mode: 'diff' as const, label: 'Diff vs disk' }] : []),
  ];
  return (
    <article className="pv-file" data-path={file.path} data-state={state.cls}>
      <header className="pv-file-head">
        <span className="pv-file-path">{file.path}</span>
        {file.merge && (
          <span className="tag subtle">{file.merge === 'section' ? 'merged section' : 'settings, merged by key'}</span>
        )}
        {file.servedBy && <span className="tag subtle">shared .agents/skills copy</span>}
        <span className={`pv-file-state ${state.cls}`}>{state.word}</span>
        <span className="pv-file-spacer" />
        {!file.binary && modes.length > 1 && (
          <div className="segmented" role="group" aria-label={`View of ${file.path}`}>
            {modes.map((m) => (
              <button
                key={m.mode}
                type="button"
                className={mode === m.mode ? 'on' : ''}
                aria-pressed={mode === m.mode}
                onClick={() => setMode(m.mode)}
              >
                {m.label}
              </button>
            ))}
          </div>
        )}
      </header>
      {file.binary ? (
        <p className="muted small pv-file-binary">{formatCount(file.size)} bytes, copied as is</p>
      ) : (
        <>
          {!whole && (
            <p className="muted small pv-file-large" data-testid="preview-large">
              {file.path} as compile writes it is {formatBytes(file.size)} —{' '}
              {section !== undefined
                ? "too large to show whole here; this is this skill's section"
                : 'too large to show here'}
              .
            </p>
          )}
          <FileBody file={file} mode={mode} section={section} />
        </>
      )}
    </article>
  );
}

function FileBody({ file, mode, section }: { file: PreviewFile; mode: Mode; section: string | undefined }) {
  if (mode === 'section' && section !== undefined) return <OutputText text={section} />;
  if (mode === 'output' && file.text !== null) return <OutputText text={file.text} />;
  if (mode !== 'diff') return null;
  if (file.text !== null && (file.disk !== null || !file.onDisk))
    return <DiffView before={file.disk ?? ''} after={file.text} absent={!file.onDisk} />;
  if (section !== undefined)
    return (
      <>
        <p className="muted small pv-file-large">
          {file.diskSection === null
            ? 'This skill has no section in the file on disk yet — compile adds it:'
            : "This skill's section, on disk → compile:"}
        </p>
        <DiffView before={file.diskSection ?? ''} after={section} absent={!file.onDisk} />
      </>
    );
  return <p className="muted small pv-file-large">The file on disk is too large to compare here.</p>;
}
