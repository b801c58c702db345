/**
 * Fault injection for the reliability tests: when SKILLSMITH_FAULT names this step,
 * the process kills itself with SIGKILL right here — no cleanup, no finally blocks,
 * exactly like a power cut or `kill -9`.
 */
export function faultPoint(step: string): void {
  if (process.env.SKILLSMITH_FAULT === step) process.kill(process.pid, 'SIGKILL');
}
