import { useEffect } from 'react';

/**
 * Escape closes the topmost panel or dialog while it is mounted, and when it goes, focus
 * returns to whatever had it when it opened (the button that opened it) instead of
 * dropping to the page body, so keyboard users keep their place.
 */
export function useEscape(onEscape: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onEscape();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onEscape]);
  useEffect(() => {
    const origin = document.activeElement;
    return () => {
      // After React has removed the panel; the origin may itself be gone by then.
      queueMicrotask(() => {
        if (origin instanceof HTMLElement && origin.isConnected && origin !== document.body) origin.focus();
      });
    };
  }, []);
}
