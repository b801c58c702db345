import { createSkill, EditorFsError, openSkill, readEditable, saveEditable } from '../../services/editor/files';
import { OutsideProjectError } from '../../services/fs/inside';
import { HandlerError } from '../errors';
import type { AreaHandlers } from '../table';

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EditorFsError) throw new HandlerError(e.code, e.message);
    if (e instanceof OutsideProjectError) throw new HandlerError('outside-project', e.message);
    throw e;
  }
}

export const editorHandlers: AreaHandlers<'editor'> = {
  open: (req, { session }) => guard(() => openSkill(session.requireProject().ref.root, req.dir)),
  read: (req, { session }) => guard(() => readEditable(session.requireProject().ref.root, req.dir, req.file)),
  save: (req, { session }) =>
    guard(() =>
      saveEditable(session.requireProject().ref.root, req.dir, req.file, req.text, req.expected, req.force === true),
    ),
  create: (req, { session }) => guard(() => createSkill(session.requireProject().ref.root, req.name, req.description)),
};
