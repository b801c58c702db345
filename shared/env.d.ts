// The few web-platform globals shared/ relies on. They exist in Node ≥ 11, Electron and
// every browser; declaring them here keeps shared/ compiled without DOM or Node types.
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly username: string;
  readonly password: string;
}
