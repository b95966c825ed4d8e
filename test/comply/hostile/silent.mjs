// Hostile stdio server: reads everything, answers nothing.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
