/**
 * Where a message is shown. Main's services serve the command line and the app alike; on
 * the command line a message names the flag or command that does something, in the app
 * what the app offers instead (a button, the Runner list) or nothing, where the sentence
 * says enough without it. So a producer of such a message takes the surface it words it
 * for; the command line's wording is the default, as it was the only one.
 */
export type Surface = 'cli' | 'app';
