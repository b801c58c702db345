import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

/** The open dialogs, innermost last: Escape and Tab belong to the innermost one only. */
const open: HTMLElement[] = [];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab cycle inside `panel`: they never reach the page behind it. */
function trapTab(panel: HTMLElement, e: KeyboardEvent): void {
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  if (items.length === 0) {
    e.preventDefault();
    panel.focus();
    return;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const at = document.activeElement;
  const outside = !(at instanceof Node) || !panel.contains(at);
  if (e.shiftKey && (at === first || at === panel || outside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || outside)) {
    e.preventDefault();
    first.focus();
  }
}

export type DialogLabel = { readonly label: string } | { readonly labelledBy: string };

/**
 * A modal dialog: a backdrop over the page and a panel that is `aria-modal`, named by its
 * heading (`labelledBy`) or a `label`. While it is open, focus stays inside (Tab cycles),
 * Escape closes it, and a press on the backdrop does too unless `backdropCloses` is false.
 * It takes focus when it opens — `initialFocus`, else the panel — and gives it back to
 * whatever had it (the button that opened it) when it goes.
 */
export function Dialog({
  onClose,
  className,
  backdropClassName,
  role = 'dialog',
  describedBy,
  initialFocus,
  backdropCloses = true,
  testId,
  children,
  ...name
}: {
  onClose: () => void;
  /** The view's own class on the panel, beside the shared `modal`. */
  className?: string;
  backdropClassName?: string;
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  backdropCloses?: boolean;
  testId?: string;
  children: ReactNode;
} & DialogLabel) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const origin = document.activeElement;
    open.push(el);
    (initialFocus?.current ?? el).focus();
    const onKey = (e: KeyboardEvent): void => {
      if (open[open.length - 1] !== el) return;
      if (e.key === 'Escape') close.current();
      // A text editor inside (Monaco) may take Tab for itself.
      else if (e.key === 'Tab' && !e.defaultPrevented) trapTab(el, e);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      open.splice(open.indexOf(el), 1);
      // After React has removed the dialog; the opener may itself be gone by then.
      queueMicrotask(() => {
        if (origin instanceof HTMLElement && origin.isConnected && origin !== document.body) origin.focus();
      });
    };
    // Mounting is opening: focus moves once, not on every render.
  }, []);

  return (
    <div
      className={backdropClassName ? `modal-backdrop ${backdropClassName}` : 'modal-backdrop'}
      onMouseDown={(e) => backdropCloses && e.target === e.currentTarget && onClose()}
    >
      <div
        ref={panel}
        className={className ? `modal ${className}` : 'modal'}
        role={role}
        aria-modal="true"
        aria-label={'label' in name ? name.label : undefined}
        aria-labelledby={'labelledBy' in name ? name.labelledBy : undefined}
        aria-describedby={describedBy}
        tabIndex={-1}
        data-testid={testId}
      >
        {children}
      </div>
    </div>
  );
}
