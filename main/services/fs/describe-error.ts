/** A filesystem error as the few words a user needs ("does not exist", "permission denied"). */
export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'ENOTDIR':
      return 'is not a folder';
    case 'ELOOP':
      return 'is a symlink loop';
    default:
      return `cannot be read (${code ?? (e instanceof Error ? e.message : String(e))})`;
  }
}
