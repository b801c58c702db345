/**
 * A project's path split for the top bar: the head is cut from its start when space is
 * short, the tail (the project's own folder) is never cut — `…/projects/api-style` tells
 * projects apart, `/home/al…` does not.
 */
export function splitProjectPath(root: string): { head: string; tail: string } {
  const trimmed = root.replace(/(?<=.)[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1;
  // A root (`/`, `C:\`) is all tail: there is no folder name to keep apart from it.
  if (cut >= trimmed.length) return { head: '', tail: root };
  return { head: root.slice(0, cut), tail: root.slice(cut) };
}
