/**
 * The virtualised tables size their window of rows without making the browser lay the page
 * out inside React's commit: the scroller's box is read only when a ResizeObserver reports
 * it, and until then the window is as tall as the scroller can be.
 */
import { describe, expect, it } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { sizedAfterLayout } from '../../renderer/src/components/virtual-rect';

type Instance = Virtualizer<HTMLDivElement, Element>;

/** A scroller that counts how often its box is read (each read forces a layout in a browser). */
function scroller(width: number, height: number) {
  const el = { reads: 0 } as unknown as HTMLDivElement & { reads: number };
  Object.defineProperty(el, 'clientWidth', { get: () => (el.reads++, width) });
  Object.defineProperty(el, 'clientHeight', { get: () => (el.reads++, height) });
  return el;
}

class FakeObserver {
  static last: FakeObserver | undefined;
  observed: { target: Element; options: unknown }[] = [];
  disconnected = false;
  constructor(readonly fire: () => void) {
    FakeObserver.last = this;
  }
  observe(target: Element, options: unknown) {
    this.observed.push({ target, options });
  }
  disconnect() {
    this.disconnected = true;
  }
}

describe('sizedAfterLayout', () => {
  it('starts from the given height and reads the box only when the observer reports it', () => {
    const opts = sizedAfterLayout(560);
    expect(opts.initialRect).toEqual({ width: 0, height: 560 });
    const el = scroller(900, 412);
    const seen: { width: number; height: number }[] = [];
    const stop = opts.observeElementRect(
      { scrollElement: el, targetWindow: { ResizeObserver: FakeObserver } } as unknown as Instance,
      (r) => seen.push(r),
    );
    expect(el.reads).toBe(0);
    expect(seen).toEqual([]);
    const observer = FakeObserver.last!;
    expect(observer.observed).toEqual([{ target: el, options: { box: 'content-box' } }]);
    observer.fire();
    expect(seen).toEqual([{ width: 900, height: 412 }]);
    stop?.();
    expect(observer.disconnected).toBe(true);
  });

  it('falls back to reading the box at once where there is no ResizeObserver', () => {
    const el = scroller(300, 200);
    const seen: { width: number; height: number }[] = [];
    sizedAfterLayout(560).observeElementRect(
      { scrollElement: el, targetWindow: {}, options: {} } as unknown as Instance,
      (r) => seen.push(r),
    );
    expect(seen).toEqual([{ width: 300, height: 200 }]);
  });
});
