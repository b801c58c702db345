import { z } from 'zod';

// The renderer runs under a CSP without 'unsafe-eval'; zod's JIT would probe `new Function`.
// Imported first by main.tsx so it is set before any schema parses.
z.config({ jitless: true });
