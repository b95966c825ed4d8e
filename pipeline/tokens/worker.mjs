// Entry of the offline stage's token-counting worker thread. tsx hooks registered in the main
// thread are not guaranteed to apply to workers on Node 20, so the worker registers them itself
// and then loads the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import('./worker_body.ts');
