import { createSkill, openSkill, readEditable, saveEditable } from '../../services/editor/files';
import type { AreaHandlers } from '../table';

export const editorHandlers: AreaHandlers<'editor'> = {
  open: (req, { session }) => openSkill(session.requireProject().ref.root, req.dir),
  read: (req, { session }) => readEditable(session.requireProject().ref.root, req.dir, req.file),
  save: (req, { session }) =>
    saveEditable(session.requireProject().ref.root, req.dir, req.file, req.text, req.expected, req.force === true),
  create: (req, { session }) => createSkill(session.requireProject().ref.root, req.name, req.description),
};
