/**
 * Run as a script by tokenizer.test.ts: posts a job to the token-counting worker and closes the
 * worker while the job is pending (what the offline stage does when the main thread's own count
 * fails first). Prints the job's rejection and "closed"; before the fix Node exited 13 here with
 * nothing printed after the rejection (the worker was unreferenced while it terminated).
 */
import { startCountWorker } from '../../pipeline/tokens/worker_client.ts';

const w = startCountWorker();
const job = w.countMany(['o200k_base'], ['hello'], 'scope');
job.then(
  () => console.log('job: counted'),
  (e: Error) => console.log(`job: ${e.message}`),
);
await w.close();
console.log('closed');
