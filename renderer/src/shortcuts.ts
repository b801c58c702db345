/**
 * The app's keyboard map (README, "Keyboard"), one per shell. In Electron the app owns the
 * window, so Ctrl/Cmd+1…9 pick a tab, Ctrl/Cmd+P opens a skill and Ctrl/Cmd+Shift+B
 * compiles. In a browser those keys are the browser's (Ctrl+1…9 its tabs, Ctrl+P print,
 * Ctrl+Shift+B the bookmarks bar) and Alt+1…9 is taken too (tabs in Chrome and Firefox on
 * Linux), so browser mode uses Alt+Shift with the same letters and digits, which no major
 * browser binds. The digit is read from `code`, since Shift turns `key` into `!`, `@`, ….
 */

export type Shell = 'electron' | 'web';

export type ShortcutAction = { kind: 'tab'; index: number } | { kind: 'quick-open' } | { kind: 'compile' };

export interface KeyLike {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** What a key press asks for in this shell, or nothing. */
export function shortcutFor(e: KeyLike, shell: Shell): ShortcutAction | undefined {
  const key = e.key.toLowerCase();
  const digit = /^Digit([1-9])$/.exec(e.code)?.[1];
  if (shell === 'web') {
    if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey) return undefined;
    if (digit) return { kind: 'tab', index: Number(digit) - 1 };
    if (e.code === 'KeyP') return { kind: 'quick-open' };
    if (e.code === 'KeyB') return { kind: 'compile' };
    return undefined;
  }
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return undefined;
  if (!e.shiftKey && /^[1-9]$/.test(key)) return { kind: 'tab', index: Number(key) - 1 };
  if (!e.shiftKey && key === 'p') return { kind: 'quick-open' };
  if (e.shiftKey && key === 'b') return { kind: 'compile' };
  return undefined;
}

/** How the shortcut for `action` is written for the user in this shell ("Ctrl+2", "Alt+Shift+2"). */
export function shortcutLabel(action: ShortcutAction, shell: Shell): string {
  const mod = shell === 'web' ? 'Alt+Shift+' : 'Ctrl+';
  switch (action.kind) {
    case 'tab':
      return `${mod}${action.index + 1}`;
    case 'quick-open':
      return `${mod}P`;
    case 'compile':
      return shell === 'web' ? 'Alt+Shift+B' : 'Ctrl+Shift+B';
  }
}

/** The shell this page runs in: Electron's preload puts its bridge on `window`. */
export function currentShell(): Shell {
  return typeof window !== 'undefined' && (window as { skillsmith?: unknown }).skillsmith ? 'electron' : 'web';
}
