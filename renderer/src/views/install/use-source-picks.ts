import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { SourceSkillView } from '../../../../shared/ipc/channels/adopt';
import { useApi } from '../../api/context';

/**
 * The install form's first step: list the source (sources.list). One skill (or a source that
 * cannot be listed) goes straight to
 * `review`; a source of many shows its checklist, and the picks are reviewed one at a time
 * (`reviewNext` after each is installed or discarded).
 */
export function useSourcePicks(review: (source: string) => void) {
  const api = useApi();
  const [listing, setListing] = useState<{ source: string; skills: readonly SourceSkillView[] } | null>(null);
  const [queue, setQueue] = useState<readonly string[]>([]);
  const list = useMutation({
    mutationFn: (source: string) => api.sources.list({ source }),
    onSuccess: (l, source) => {
      if (l.single) review(source);
      else setListing({ source, skills: l.skills });
    },
    // A source that cannot be listed is reviewed as typed: install.begin reports what is wrong with it.
    onError: (_e, source) => review(source),
  });
  const reviewNext = () => {
    const [next, ...rest] = queue;
    setQueue(rest);
    if (next !== undefined) review(next);
  };
  return { listing, setListing, queue, setQueue, list, reviewNext };
}
