/** The keyboard map per shell (renderer/src/shortcuts.ts; README "Keyboard"). */
import { describe, expect, it } from 'vitest';
import { shortcutFor, shortcutLabel, type KeyLike } from '../../renderer/src/shortcuts';

const key = (k: Partial<KeyLike> & Pick<KeyLike, 'key' | 'code'>): KeyLike => ({
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...k,
});

describe('shortcutFor', () => {
  it('Electron: Ctrl/Cmd+digit a tab, Ctrl+P quick open, Ctrl+Shift+B compile', () => {
    expect(shortcutFor(key({ key: '3', code: 'Digit3', ctrlKey: true }), 'electron')).toEqual({
      kind: 'tab',
      index: 2,
    });
    expect(shortcutFor(key({ key: '3', code: 'Digit3', metaKey: true }), 'electron')).toEqual({
      kind: 'tab',
      index: 2,
    });
    expect(shortcutFor(key({ key: 'p', code: 'KeyP', ctrlKey: true }), 'electron')).toEqual({ kind: 'quick-open' });
    expect(shortcutFor(key({ key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true }), 'electron')).toEqual({
      kind: 'compile',
    });
    expect(shortcutFor(key({ key: '@', code: 'Digit2', altKey: true, shiftKey: true }), 'electron')).toBeUndefined();
  });

  it('browser: only Alt+Shift, the digit read from its code (Shift makes the key a symbol)', () => {
    expect(shortcutFor(key({ key: '@', code: 'Digit2', altKey: true, shiftKey: true }), 'web')).toEqual({
      kind: 'tab',
      index: 1,
    });
    expect(shortcutFor(key({ key: 'P', code: 'KeyP', altKey: true, shiftKey: true }), 'web')).toEqual({
      kind: 'quick-open',
    });
    expect(shortcutFor(key({ key: 'B', code: 'KeyB', altKey: true, shiftKey: true }), 'web')).toEqual({
      kind: 'compile',
    });
    // The browser's own keys are left to it.
    for (const k of [
      key({ key: '2', code: 'Digit2', ctrlKey: true }),
      key({ key: '2', code: 'Digit2', altKey: true }),
      key({ key: 'p', code: 'KeyP', ctrlKey: true }),
      key({ key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true }),
      key({ key: '@', code: 'Digit2', ctrlKey: true, altKey: true, shiftKey: true }),
    ])
      expect(shortcutFor(k, 'web'), JSON.stringify(k)).toBeUndefined();
  });

  it('labels say the keys of the shell', () => {
    expect(shortcutLabel({ kind: 'tab', index: 0 }, 'electron')).toBe('Ctrl+1');
    expect(shortcutLabel({ kind: 'tab', index: 8 }, 'web')).toBe('Alt+Shift+9');
    expect(shortcutLabel({ kind: 'quick-open' }, 'web')).toBe('Alt+Shift+P');
    expect(shortcutLabel({ kind: 'compile' }, 'electron')).toBe('Ctrl+Shift+B');
  });
});
