import { useState } from 'react';
import { EMPTY, type Draft } from './source';

const DRAFT_KEY = 'skillsmith.install.draft';

/** What the person typed survives errors, re-reviews, navigation and reloads of this tab. */
export function useDraft(): [Draft, (d: Partial<Draft>) => void] {
  const [draft, set] = useState<Draft>(() => {
    try {
      return {
        ...EMPTY,
        ...(JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? '{}') as Partial<Draft>),
      };
    } catch {
      return EMPTY;
    }
  });
  const update = (d: Partial<Draft>) =>
    set((prev) => {
      const next = { ...prev, ...d };
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
      return next;
    });
  return [draft, update];
}
