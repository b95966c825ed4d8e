// Hostile stdio server: answers each line with bytes that are not UTF-8.
process.stdin.on('data', () => process.stdout.write(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d, 0x0a])));
process.stdin.on('end', () => process.exit(0));
