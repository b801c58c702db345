import { observeElementRect, type Virtualizer } from '@tanstack/react-virtual';

type Rect = { width: number; height: number };

/**
 * Virtualiser options that let the browser lay the page out in its own time.
 *
 * TanStack's default reads the scroller's size the moment it mounts, so the browser lays the
 * whole page out inside React's commit. On a first paint that layout is the page's first
 * (fonts, every panel below the fold): at 200 skills it made the dashboard's render task
 * 50–100 ms longer. Here a ResizeObserver reports the size once the browser has laid the page
 * out itself, and until then the window of rows is sized from `height`: the most the
 * scroller can be, so the first paint is never short of rows (a few extra are dropped a frame
 * later). Without ResizeObserver (jsdom), the default applies.
 */
export function sizedAfterLayout(height: number) {
  return {
    initialRect: { width: 0, height },
    observeElementRect: (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) => {
      const el = instance.scrollElement;
      const Observer = instance.targetWindow?.ResizeObserver;
      if (!el || !Observer) return observeElementRect(instance, cb);
      // Inside the observer's callback the layout is fresh: reading the box costs nothing.
      const observer = new Observer(() => cb({ width: el.clientWidth, height: el.clientHeight }));
      observer.observe(el, { box: 'content-box' });
      return () => observer.disconnect();
    },
  };
}
