import { config } from 'zod/v4/core';

// Zod compiles a fast object parser with `new Function` after probing whether eval is
// allowed; the Content Security Policy forbids it, and the blocked probe is reported on every
// page. Jitless parsing skips the probe. This module is main.tsx's first import, so it runs
// before any module builds a schema (the probe runs when an object schema is created).
config({ jitless: true });
