import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useApi } from './api/context';

/**
 * Refetch `queryKey` (and every key under it) whenever the project at `root` changes on
 * disk: an edit saved in the editor, a git checkout, the lock or the policy rewritten.
 */
export function useRefreshOnChange(root: string, queryKey: QueryKey): void {
  const api = useApi();
  const qc = useQueryClient();
  // The key is a fresh array each render; the subscription follows the latest without resubscribing.
  const key = useRef(queryKey);
  key.current = queryKey;
  useEffect(
    () =>
      api.on('project.changed', (e) => {
        if (e.root === root) void qc.invalidateQueries({ queryKey: key.current });
      }),
    [api, qc, root],
  );
}
