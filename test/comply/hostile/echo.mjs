// Hostile stdio server: writes every line it reads back to stdout, as if it were the answer.
process.stdin.pipe(process.stdout);
process.stdin.on('end', () => process.exit(0));
