import { STAGES } from 'virtual:monaco-stages';

/** Lets the page paint and handle input before the next stage runs. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    channel.port2.postMessage(null);
  });
}

/**
 * Evaluates Monaco's editor core in stages (tooling/monaco-stages.ts), then the rest of the
 * editor's Monaco set-up (languages, themes, the YAML service), each its own task, so
 * opening the first editor never blocks the page for the whole core at once. Importing
 * the editor afterwards finds all of it evaluated; without this it would still work, in
 * one long task.
 */
export async function loadMonacoInStages(): Promise<void> {
  for (const stage of STAGES) {
    await stage();
    await nextTask();
  }
  await import('./setup');
  await nextTask();
}
