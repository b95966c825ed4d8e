// Hostile stdio server: on the first input, starts one stdout line that never ends.
const chunk = 'x'.repeat(64 * 1024);
let started = false;
function pump() {
  if (process.stdout.write(chunk)) setImmediate(pump);
  else process.stdout.once('drain', pump);
}
process.stdin.on('data', () => {
  if (!started) {
    started = true;
    pump();
  }
});
process.stdin.on('end', () => process.exit(0));
