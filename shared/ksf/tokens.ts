/** The format's token estimate: a quarter of the UTF-16 length, rounded up. Deliberately rough. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
