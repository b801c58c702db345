/**
 * The renderer's Content-Security-Policy. index.html carries the same directives in a
 * <meta> tag (for Electron's app:// protocol); the host and the protocol handler also send
 * it as a header, which can add what a <meta> tag cannot (frame-ancestors).
 */
export function rendererCsp(connectExtra: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self'${connectExtra.map((c) => ` ${c}`).join('')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
