import { useEffect, useState } from 'react';
import type { FolderListing } from '../../../shared/ipc/channels/folders';
import { useApi } from '../api/context';
import { Dialog } from './Dialog';
import { Spinner } from './States';
import './app-picker.css';

/**
 * Browse… for the browser mode, which has no OS folder dialog: the server lists the
 * folders of the user's home (and nothing outside it); projects are marked. Choosing a
 * folder hands its path back; nothing is opened until then.
 */
export function FolderBrowser({
  start,
  onChoose,
  onClose,
}: {
  /** Where to open (the current project's parent); outside the home folder or gone, it opens on home. */
  start?: string;
  onChoose: (path: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const [at, setAt] = useState<string | undefined>(start);
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    api.folders
      .list(at === undefined ? {} : { path: at })
      .then((r) => live && setListing(r))
      .catch((e: unknown) => {
        if (!live) return;
        // The starting folder is only a guess: one the server will not list falls back to home.
        if (at !== undefined && at === start) setAt(undefined);
        else setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      live = false;
    };
  }, [api, at]);

  return (
    <Dialog onClose={onClose} className="app-folder-browser" labelledBy="browse-title">
      <div className="modal-head">
        <h2 id="browse-title">Choose a project folder</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="app-folder-where">
        <button
          type="button"
          className="btn"
          disabled={!listing?.parent}
          onClick={() => listing?.parent && setAt(listing.parent)}
          aria-label="Up one folder"
        >
          ↑ Up
        </button>
        <span className="mono small app-folder-path" data-testid="folder-path">
          {listing?.path ?? '…'}
        </span>
      </div>
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : !listing ? (
        <p className="muted">
          <Spinner label="Listing" /> Listing folders…
        </p>
      ) : listing.folders.length === 0 ? (
        <div className="app-folder-empty" data-testid="no-folders">
          <p>
            {listing.parent
              ? 'This folder has no sub-folders to show.'
              : 'Your home folder has no sub-folders to show, and the picker lists only folders inside it.'}{' '}
            <span className="muted">Hidden folders (names starting with a dot) are not listed.</span>
          </p>
          <p className="muted small">
            {listing.parent ? 'Go up, or type' : 'Type'} the project&apos;s path in the field behind this dialog
            instead.
          </p>
          {listing.parent && (
            <button type="button" className="btn" onClick={() => listing.parent && setAt(listing.parent)}>
              ↑ Go up to {listing.parent.split(/[\\/]/).pop() || listing.parent}
            </button>
          )}
        </div>
      ) : (
        <ul className="app-folder-list" aria-label="Folders">
          {listing.folders.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                className="app-folder-item"
                onClick={() => setAt(f.path)}
                onDoubleClick={() => f.project && onChoose(f.path)}
              >
                <span aria-hidden="true">{f.project ? '✦' : '▸'}</span> {f.name}
                {f.project && <span className="tag">project</span>}
              </button>
            </li>
          ))}
          {listing.truncated && <li className="muted small">more folders than shown — type the path instead</li>}
        </ul>
      )}
      <div className="modal-actions">
        <button type="button" className="btn ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={!listing}
          onClick={() => listing && onChoose(listing.path)}
          data-action="open-folder"
        >
          Open {listing ? `“${listing.path.split(/[\\/]/).pop() || listing.path}”` : 'this folder'}
        </button>
      </div>
    </Dialog>
  );
}
