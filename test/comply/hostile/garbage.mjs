// Hostile stdio server: answers every input line with prose on stdout, never JSON-RPC.
process.stdin.on('data', () => process.stdout.write('Welcome to my server! Type help for commands.\n'));
process.stdin.on('end', () => process.exit(0));
