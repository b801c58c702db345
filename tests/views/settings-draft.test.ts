/** The Settings form turns only what the user changed into named edits. */
import { describe, expect, it } from 'vitest';
import type { SettingsData } from '../../shared/ipc/channels/settings';
import { SettingsEdit } from '../../shared/ipc/channels/settings';
import { draftOf, editsOf } from '../../renderer/src/views/settings/draft';

const DATA: SettingsData = {
  text: '',
  version: null,
  error: null,
  targets: ['claude-code', 'cursor'],
  policy: { max_budget: 2000, deny_remote_exec: true, allow_sources: ['github:acme/*'] },
  exceptions: [
    { index: 0, entry: null, id: null, confirmed: false, problem: 'bad' },
    { index: 1, entry: null, id: null, confirmed: false, problem: 'bad' },
  ],
  known: [],
};

describe('settings draft → edits', () => {
  it('an untouched draft makes no edits', () => {
    expect(editsOf(DATA, draftOf(DATA))).toEqual([]);
  });

  it('each changed field becomes one edit the channel schema accepts', () => {
    const d = draftOf(DATA);
    const edits = editsOf(DATA, {
      targets: ['cursor'],
      policy: { ...d.policy, max_budget: null, deny_network: true, allow_sources: ['github:acme/*', 'github:team/*'] },
      remove: new Set([1]),
    });
    expect(edits).toEqual([
      { kind: 'targets', targets: ['cursor'] },
      { kind: 'policy', key: 'deny_network', value: true },
      { kind: 'policy', key: 'max_budget', value: null },
      { kind: 'policy', key: 'allow_sources', value: ['github:acme/*', 'github:team/*'] },
      { kind: 'removeException', index: 1 },
    ]);
    for (const e of edits) expect(SettingsEdit.safeParse(e).success).toBe(true);
  });

  it('switching targets to detection unsets the key', () => {
    expect(editsOf(DATA, { ...draftOf(DATA), targets: null })).toEqual([{ kind: 'targets', targets: null }]);
  });
});
