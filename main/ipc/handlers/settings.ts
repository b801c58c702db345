import { applySettings, confirmSettingsException, previewSettings, readSettings } from '../../services/settings/index';
import type { AreaHandlers } from '../table';

export const settingsHandlers: AreaHandlers<'settings'> = {
  read: (_req, { session }) => readSettings(session.requireProject().ref.root),
  preview: (req, { session }) => previewSettings(session.requireProject().ref.root, req.version, req.edits),
  apply: (req, { session }) => applySettings(session.requireProject().ref.root, req.version, req.edits),
  confirmException: (req, { session }) => confirmSettingsException(session.requireProject().ref.root, req.id),
};
