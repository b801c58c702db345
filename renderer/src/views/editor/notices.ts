/**
 * The editor's notices ("Saved SKILL.md", "could not keep a draft"): a short list that
 * never blocks the page. An info notice goes away by itself after a few seconds — unless
 * the pointer or focus is on it, so it can be read — and an error stays until dismissed.
 * The same text again replaces the older notice instead of piling up.
 */
export interface Notice {
  readonly id: number;
  readonly kind: 'info' | 'error';
  readonly text: string;
}

export const INFO_MS = 4000;
const MAX = 3;

export class Notices {
  list: readonly Notice[] = [];
  private next = 1;
  private timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly changed: () => void) {}

  push(kind: Notice['kind'], text: string): Notice {
    const n: Notice = { id: this.next++, kind, text };
    for (const old of this.list.filter((x) => x.text === text)) this.clearTimer(old.id);
    this.list = [...this.list.filter((x) => x.text !== text), n].slice(-MAX);
    if (kind === 'info') this.arm(n.id);
    this.changed();
    return n;
  }

  dismiss(id: number): void {
    this.clearTimer(id);
    const before = this.list.length;
    this.list = this.list.filter((n) => n.id !== id);
    if (this.list.length !== before) this.changed();
  }

  /** The person is reading it (hover or focus): it stays. */
  hold(id: number): void {
    this.clearTimer(id);
  }

  /** Reading is over: an info notice goes after the usual delay. */
  release(id: number): void {
    if (this.list.some((n) => n.id === id && n.kind === 'info')) this.arm(id);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private arm(id: number): void {
    this.clearTimer(id);
    this.timers.set(
      id,
      setTimeout(() => this.dismiss(id), INFO_MS),
    );
  }

  private clearTimer(id: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }
}
