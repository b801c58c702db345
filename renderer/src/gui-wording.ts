/**
 * Main's messages are shared with the command line, so some name its flags ("Pass
 * --unconfined …", "(--max-cpu)"). The app has no flags: each mention becomes what it
 * means here — the button that does it — or goes where the sentence says enough without it.
 */
const IN_THE_APP: readonly [RegExp, string][] = [
  // The refusal box offers the override as a button, and its dialog says what it shows and that it is not remembered.
  [/\. Pass --unconfined to run it once without the sandbox \(shown before it runs, never remembered\)/g, ''],
  [/^--unconfined is only for a machine/, 'Running once without the sandbox is only for a machine'],
  [/none \(--unconfined\)/g, 'none (run once without the sandbox)'],
  // Resource limits: the app runs with the defaults, the number is what matters.
  [/ \(--max-[a-z-]+\)/g, ''],
  [/; --max-[a-z-]+\)/g, ')'],
  [/ or pass --runner \(/g, ' or pick a runner in the Runner list ('],
  [/^--runner (\S+): no such runner/, 'Runner $1: no such runner'],
  [/^--approve-runner (\S+): no such runner/, 'Runner $1: no such runner'],
  // The app asks for the approval itself when a run starts.
  [/; approve it with: skillsmith eval --approve-runner \S+/g, '; start the run again to review and approve it'],
];

/** A message from main as the app words it: no command-line flags. */
export function guiWording(text: string): string {
  return IN_THE_APP.reduce((t, [re, to]) => t.replace(re, to), text);
}
