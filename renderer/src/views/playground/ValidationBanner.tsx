import { Spinner } from '../../components/States';
import { Term } from '../../glossary';
import type { Parsed, Shown } from './use-spec';

/** One line above the playground: the spec loads and is valid, has a problem, or is the editor's draft. */
export function ValidationBanner({ file, parsed, refetching }: { file: Shown; parsed: Parsed; refetching: boolean }) {
  const v = file.validation;
  if (!parsed.ok) {
    return (
      <div className="banner error" role="alert" data-testid="spec-error">
        <strong>The spec does not load</strong> — {parsed.where}: {parsed.message}{' '}
        <span className="muted small">(SkillSpec reader)</span>
      </div>
    );
  }
  if (file.draft) {
    return (
      <div className="play-file muted small" data-testid="playing-draft">
        Playing the <strong>unsaved editor draft</strong> of <code>{file.path}</code> — parsed and validated here;
        imports and sidecars are checked when it is saved.
      </div>
    );
  }
  if (!v.ok) {
    const where = v.line !== undefined ? `${file.path}:${v.line}:${v.column ?? 1}` : file.path;
    return (
      <div className="banner warn" role="alert" data-testid="spec-error">
        <strong>The spec has a problem</strong> — {where}: {v.message}{' '}
        <span className="muted small">({v.kind}, full validation in main)</span>. The rules still play below.
      </div>
    );
  }
  return (
    <div className="play-file muted small">
      <code>{file.path}</code> · {v.routes} routes · {v.rules} rules · {v.tests}{' '}
      <Term term="scenario" plain>
        scenario tests
      </Term>{' '}
      · <span className="badge pass">valid</span>
      {refetching && <Spinner label="Reloading the spec" />}
    </div>
  );
}
