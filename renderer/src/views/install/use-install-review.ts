import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { ApproveResult, ReviewView } from '../../../../shared/ipc/channels/install';
import { useApi } from '../../api/context';
import { newProgressId, useProgress } from './use-progress';
import { useSourcePicks } from './use-source-picks';
import { useRefreshInstalled } from './use-refresh-installed';

export type Installed = Extract<ApproveResult, { outcome: 'installed' }>;

/**
 * The install's state: a source is listed (a checklist when it holds many skills), each
 * pick reviewed in main, then approved bound to the reviewed hash — or discarded. A review
 * still open when the view goes away is discarded in main.
 */
export function useInstallReview(project: ProjectRef) {
  const api = useApi();
  const refreshInstalled = useRefreshInstalled(project.root);
  const [review, setReview] = useState<ReviewView | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [done, setDone] = useState<Installed | null>(null);
  const [pid, setPid] = useState<string | null>(null);
  const live = useRef<string | null>(null);
  live.current = review?.id ?? null;
  useEffect(() => () => void (live.current && api.install.cancel({ id: live.current }).catch(() => undefined)), [api]);

  const begin = useMutation({
    mutationFn: (source: string) => {
      const id = newProgressId('review');
      setPid(id);
      return api.install.begin({ source, progressId: id });
    },
    onSuccess: (r) => {
      setChanged(null);
      setReview(r);
    },
  });
  const picks = useSourcePicks((source) => begin.mutate(source));
  const approve = useMutation({
    mutationFn: (r: ReviewView) => {
      const id = newProgressId('approve');
      setPid(id);
      return api.install.approve({
        id: r.id,
        integrity: r.integrity,
        progressId: id,
      });
    },
    onSuccess: (res) => {
      if (res.outcome === 'changed') {
        setChanged(res.message);
        setReview(res.review);
        return;
      }
      setReview(null);
      setDone(res);
      picks.reviewNext();
      refreshInstalled();
    },
  });
  const busy = begin.isPending || approve.isPending || picks.list.isPending;
  const progress = useProgress(pid, busy);

  const discard = () => {
    if (review) void api.install.cancel({ id: review.id }).catch(() => undefined);
    setReview(null);
    setChanged(null);
    approve.reset();
    picks.reviewNext();
  };
  // An accepted exception changed kitbash.toml: review the same source again (the old session is dropped).
  const reReview = (r: ReviewView) => {
    void api.install.cancel({ id: r.id }).catch(() => undefined);
    if (begin.variables !== undefined) begin.mutate(begin.variables);
  };
  return { review, changed, done, setDone, begin, approve, picks, busy, progress, discard, reReview };
}
